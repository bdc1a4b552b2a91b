/**
 * What a request sent to the authority outside authorization (an event after authorization, an
 * inutilização) keeps of its sends: the answer once there is one, and, while there is none, the
 * lease of the send in flight and what the last unanswered send came to, so a repeated request
 * knows whether it may send again or must consult first.
 */
export interface AuthoritySendState {
  protocol: string | null;
  cStat: number | null;
  xMotivo: string | null;
  /** Lease of the send in flight; null when none holds it. */
  sendingUntil: Date | null;
  /** What the last send came to when it got no answer: `failed` (never reached), `unknown` (may have). */
  lastOutcome: 'failed' | 'unknown' | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  /** Whether the authority's signed record (procEventoNFe, ProcInutNFe) is stored. */
  hasXml: boolean;
}
