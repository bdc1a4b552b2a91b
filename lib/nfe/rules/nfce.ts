import { DomainError } from '../../errors/index.js';
import type { Item, NfceBody } from '../types.js';

export const JUSTIFICATIVA_MIN = 15;
export const JUSTIFICATIVA_MAX = 256;

/** Printed when the service enters contingency and the caller sent no justification (API.md, NFC-e). */
export const DEFAULT_JUSTIFICATIVA_CONTINGENCIA = 'Autorizador da SEFAZ indisponivel no momento da emissao';

/** API.md, NFC-e payload: 15-256 characters, refused as sent, never completed or truncated. */
export function checkJustificativaContingencia(justificativa: string | undefined): string | undefined {
  if (justificativa === undefined) return undefined;
  const length = [...justificativa].length;
  if (length < JUSTIFICATIVA_MIN || length > JUSTIFICATIVA_MAX) {
    throw new DomainError('JUSTIFICATIVA_CONTINGENCIA_INVALIDA', {
      campo: 'justificativaContingencia', tamanho: length, minimo: JUSTIFICATIVA_MIN, maximo: JUSTIFICATIVA_MAX,
    });
  }
  return justificativa;
}

/**
 * API.md: an IPI group in an NFC-e refuses 422 IPI_NAO_SUPORTADO whatever its content. The NFC-e
 * schema takes `ipi` as any value (lib/nfe/schema.ts, nfceItemSchema) and this runs before the
 * items' own rules, so neither a 400 about the group's fields nor another item rule comes first.
 */
export function checkNfceSemIpi(items: readonly Pick<Item, 'ipi'>[]): void {
  const index = items.findIndex((item) => item.ipi !== undefined);
  if (index >= 0) throw new DomainError('IPI_NAO_SUPORTADO', { item: index, campo: `items[${index}].ipi` });
}

export const CONSUMIDOR_FINAL = 'CONSUMIDOR FINAL';

/** The identified consumer: `destNome` defaults to CONSUMIDOR FINAL when a document is given. */
export function nfceConsumer(body: Pick<NfceBody, 'destCPF' | 'destNome'>): { cnpjCpf: string; nome: string; indicadorIE: 9 } | undefined {
  if (body.destCPF === undefined) return undefined;
  return { cnpjCpf: body.destCPF, nome: body.destNome ?? CONSUMIDOR_FINAL, indicadorIE: 9 };
}
