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

/**
 * "539 Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: …][nRec: …]": the
 * authority holds this number under another key, named in xMotivo. When that key is one this very
 * document held before (re-keyed into contingency while the authority was still processing the
 * first send), the number is ours: the first key's registration is the verdict, not a rejection.
 * When it is not, it is a real rejection (the number was used by someone else).
 */
export const OTHER_KEY_DUPLICATE_CSTAT = 539;

/** The access key a 539 names in its xMotivo, or null (another answer, or no key in the text). */
export function keyNamedByDuplicate(result: AuthorizationResult): string | null {
  if (result.kind !== 'rejected' || result.cStat !== OTHER_KEY_DUPLICATE_CSTAT) return null;
  return /\[chNFe:\s*(\d{44})\s*\]/.exec(result.xMotivo)?.[1] ?? null;
}

/**
 * The authorization answer a 539 naming a key this document held amounts to, given the consult of
 * that key: authorized or denied as registered (the document adopts that key); anything else is
 * unknown, so reconciliation asks again (never a rejection).
 */
export function settleHeldKey(consult: ConsultResult, heldKey: string): AuthorizationResult {
  switch (consult.kind) {
    case 'authorized':
    case 'denied':
      return consult;
    case 'failed':
      return { kind: 'unknown', reason: 'duplicate-key', detail: `539 (número registrado com a chave anterior ${heldKey}) e a consulta dela falhou: ${consult.detail}` };
    default:
      return { kind: 'unknown', reason: 'duplicate-key', detail: `539 (número registrado com a chave anterior ${heldKey}) e a consulta dela respondeu ${consult.cStat}: ${consult.xMotivo}` };
  }
}
