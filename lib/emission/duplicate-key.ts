import type { AuthorizationResult, ConsultResult } from '../sefaz/results.js';

/**
 * "204 Rejeição: Duplicidade de NF-e": the authority already holds a note with this very access
 * key. Our keys are unique per document, so this means an earlier attempt of ours reached the
 * authority (its answer was lost, or a resend overtook it). It is not a verdict on this note: the
 * verdict is what the authority registered for the key, so the note is consulted by key and the
 * consult's answer stands for the authorization's. Storing the 204 as REJECTED would mark an
 * authorized note as rejected and invite the caller to reuse its number.
 */
export const SAME_KEY_DUPLICATE_CSTAT = 204;

export function isSameKeyDuplicate(result: AuthorizationResult): boolean {
  return result.kind === 'rejected' && result.cStat === SAME_KEY_DUPLICATE_CSTAT;
}

/**
 * The authorization answer a 204 amounts to, given the consult by key: authorized or denied as
 * registered; anything else leaves the outcome unknown, so reconciliation consults again (never a
 * rejection, never a retransmission by itself).
 */
export function settleDuplicate(consult: ConsultResult): AuthorizationResult {
  switch (consult.kind) {
    case 'authorized':
    case 'denied':
      return consult;
    case 'failed':
      return { kind: 'unknown', reason: 'duplicate-key', detail: `204 (duplicidade de chave) e a consulta falhou: ${consult.detail}` };
    default:
      return { kind: 'unknown', reason: 'duplicate-key', detail: `204 (duplicidade de chave) e a consulta respondeu ${consult.cStat}: ${consult.xMotivo}` };
  }
}
