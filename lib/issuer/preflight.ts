import { DomainError } from '../errors/index.js';
import type { IssuerRecord } from './model.js';

/**
 * Issuer selection and preflight of API.md, "Emission rules common to NF-e and NFC-e", rules 2-4,
 * as pure functions of the partner's issuers. The order is the spec's: selection (400/404), test
 * key against a production issuer (403), then the 422 preflight facts.
 */
export type EmissionModel = '55' | '65' | 'NFSe';
export type KeyKind = 'live' | 'test' | null;

/** Rule 2: one issuer makes `issuerId` optional; several require it; another partner's is 404. */
export function selectIssuer<T extends Pick<IssuerRecord, 'id' | 'partnerId'>>(own: readonly T[], issuerId: string | undefined, opts: { requireId?: boolean; removedIds?: ReadonlySet<string>; total?: number } = {}): T {
  if (issuerId) {
    const found = own.find((i) => i.id === issuerId);
    // The partner's own issuer, removed since: say so rather than "not found".
    if (!found && opts.removedIds?.has(issuerId)) throw new DomainError('EMISSOR_INEXISTENTE');
    // Same answer for "another partner's" and "unknown": existence elsewhere is not disclosed.
    if (!found) throw new DomainError('NOT_FOUND', undefined, 'Emissor não encontrado.');
    return found;
  }
  if (opts.requireId) throw new DomainError('BAD_REQUEST', undefined, 'informe issuerId: NFS-e exige issuerId');
  if (own.length === 0) throw new DomainError('NOT_FOUND', undefined, 'Nenhum emissor cadastrado: crie um com POST /v1/companies.');
  // `total`: the caller may pass only the first two issuers and the partner's count.
  if (own.length > 1) throw new DomainError('BAD_REQUEST', undefined, `informe issuerId: sua conta tem ${opts.total ?? own.length} emissores`);
  return own[0]!;
}

/** Rule 3 and API key rule 3: ek_test_ operates only homologation or sandbox issuers. */
export function checkKeyKind(issuer: Pick<IssuerRecord, 'ambienteFiscal' | 'sandbox'>, keyKind: KeyKind): void {
  if (keyKind === 'test' && issuer.ambienteFiscal === 1 && !issuer.sandbox) {
    throw new DomainError('CHAVE_TESTE_EMISSOR_PRODUCAO');
  }
}

const ADDRESS_REQUIRED = ['logradouro', 'numero', 'bairro', 'codigoMunicipio', 'municipio', 'uf', 'cep'] as const;

/**
 * Every field the emitter group needs and the record lacks, all at once (rule 4). NF-e/NFC-e need
 * IE (digits or ISENTO), CRT and the full address (C05 enderEmit); the NFS-e DPS has no IE but
 * needs the inscrição municipal, the CRT (opSimpNac) and the address (cLocEmi).
 */
export function missingFields(issuer: Pick<IssuerRecord, 'profile'>, model: EmissionModel): string[] {
  const p = issuer.profile;
  const missing: string[] = [];
  if (!p.razaoSocial) missing.push('razaoSocial');
  if (model !== 'NFSe' && !p.ie) missing.push('ie');
  if (!p.crt) missing.push('crt');
  // The DPS identifies the provider to its municipality by the inscrição municipal (prest/IM).
  if (model === 'NFSe' && !p.inscricaoMunicipal) missing.push('inscricaoMunicipal');
  for (const k of ADDRESS_REQUIRED) if (!p.endereco[k]) missing.push(`endereco.${k}`);
  return missing;
}

/** Rule 4 in order: certificate, complete record, CSC for NFC-e. `now` decides expiry. */
export function preflight(issuer: Pick<IssuerRecord, 'profile' | 'certificate'>, model: EmissionModel, now: Date): void {
  const cert = issuer.certificate;
  if (!cert) throw new DomainError('CERTIFICADO_AUSENTE');
  if (new Date(cert.notAfter).getTime() <= now.getTime()) {
    throw new DomainError('CERTIFICADO_AUSENTE', { notAfter: cert.notAfter }, `Certificado A1 do emissor expirou em ${cert.notAfter}; instale um novo.`);
  }
  if (new Date(cert.notBefore).getTime() > now.getTime()) {
    throw new DomainError('CERTIFICADO_AUSENTE', { notBefore: cert.notBefore }, `Certificado A1 do emissor só é válido a partir de ${cert.notBefore}.`);
  }
  const missing = missingFields(issuer, model);
  if (missing.length) {
    throw new DomainError('CADASTRO_EMISSOR_INCOMPLETO', { camposFaltando: missing }, `Cadastro do emissor incompleto: ${missing.join(', ')}.`);
  }
  if (model === '65' && (!issuer.profile.csc || !issuer.profile.cscId)) {
    throw new DomainError('CSC_AUSENTE', { camposFaltando: [!issuer.profile.csc && 'csc', !issuer.profile.cscId && 'cscId'].filter(Boolean) });
  }
}
