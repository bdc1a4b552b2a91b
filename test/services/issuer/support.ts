import { withCnpjCheckDigits } from '../../../lib/issuer/documents.js';
import { fakeCallerKey } from '../../support/fake-auth.js';
import type { Caller } from '../../../services/shared/caller.js';

let seq = 100000;
/** A fresh valid CNPJ per call (numeric unless `alpha`). */
export function aCnpj(alpha = false): string {
  seq++;
  const base = alpha ? `AB${String(seq).padStart(6, '0')}0001`.slice(0, 12) : `${String(Date.now() % 100000).padStart(5, '0')}${String(seq).padStart(3, '0').slice(-3)}0001`;
  return withCnpjCheckDigits(base);
}

export function as(partnerId: string, extra: Partial<Caller> = {}): Record<string, string> {
  return { 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'live', rateLimit: 100_000, ...extra }) };
}

export const SUPERADMIN: Partial<Caller> = { scheme: 'jwt', role: 'SUPERADMIN', partnerId: null, userId: 'u-admin', keyKind: null };

/** An SP IE with valid check digits: the simulator refuses an emitter IE that fails them (209), as the authority does. */
export const VALID_SP_IE = '110042490114';

/** A complete NF-e emitter record for POST /v1/companies. */
export function aCompleteIssuer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cnpj: aCnpj(),
    razaoSocial: 'EMPRESA TESTE LTDA',
    nomeFantasia: 'TESTE',
    ie: VALID_SP_IE,
    crt: 1,
    endereco: { logradouro: 'Rua das Flores', numero: '100', bairro: 'Centro', codigoMunicipio: '3550308', uf: 'SP', cep: '01001000', telefone: '1133334444' },
    ...over,
  };
}
