/**
 * Document, event and inutilização statuses in Portuguese words, for sentences a client reads
 * (issue 21, item 6: no English status token inside a Portuguese message). The status itself
 * still travels as is in `details.status` and in the resources.
 */
import type { DocumentStatus } from './state.js';
import type { NfseStatus } from './nfse/state.js';

// Event (PENDING, REGISTERED, REJECTED) and inutilização (PENDING, HOMOLOGATED, REJECTED) statuses
// are spelled out rather than imported: fiscal-events.ts and inutilizacao.ts use this module.
type AnyStatus = DocumentStatus | NfseStatus | 'PENDING' | 'REGISTERED' | 'HOMOLOGATED';

/** Masculine forms (documento, evento); `feminine` turns them for nota, NFS-e, inutilização. */
const WORDS: Record<AnyStatus, string> = {
  CREATED: 'criado, ainda não transmitido',
  TRANSMITTING: 'em transmissão',
  AUTHORIZED: 'autorizado',
  REJECTED: 'rejeitado',
  DENEGADA: 'denegado',
  ERROR: 'sem resposta da autoridade',
  CONTINGENCIA_PENDENTE: 'emitido em contingência, pendente de autorização',
  CANCELADA: 'cancelado',
  PENDING: 'pendente',
  REGISTERED: 'registrado',
  HOMOLOGATED: 'homologado',
};

/** "rejeitado" / "rejeitada"; an unknown status (a newer node's) is quoted rather than hidden. */
export function statusInWords(status: string, gender: 'm' | 'f' = 'm'): string {
  const word = (WORDS as Record<string, string>)[status];
  if (word === undefined) return `na situação ${status}`;
  return gender === 'f' ? word.replace(/\b(criad|autorizad|rejeitad|denegad|emitid|cancelad|registrad|homologad)o\b/g, '$1a') : word;
}
