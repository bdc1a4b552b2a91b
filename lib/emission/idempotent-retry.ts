/**
 * What a request does with the document its Idempotency-Key is already bound to (issue 20, defect
 * 1). The key is bound inside the numbering transaction (a unique index per partner and model), so
 * a retry — after a 5xx, a crash of any node, a timeout — always finds the document and never
 * numbers another. It answers the document's current state, and when the first attempt died
 * before any answer it carries that same document on the way reconciliation does: same key,
 * consulted first whenever a transmission may have reached the authority.
 */
import { DomainError } from '../errors/index.js';
import { isOpen, isTerminal, type DocumentStatus } from './state.js';
import { isInFlight, TRANSMISSION_LEASE_MS } from './transmission.js';
import { RESEND_WINDOW_MS } from './resend.js';

export interface BoundDocument {
  status: DocumentStatus;
  createdAt: Date;
  /** Attempts started so far (0: never handed to the authority). */
  transmissions: number;
  transmittingUntil: Date | null;
  /** Fingerprint of the request that created it; null for documents bound before fingerprints were kept. */
  fingerprint: string | null;
}

export type RetryAction =
  /** Answer the stored state: final, in contingency, in flight, or out of the resend window. */
  | { kind: 'answer' }
  /** Never sent and its creating request is gone: transmit the stored signed XML (same key). */
  | { kind: 'transmit' }
  /** A transmission may have reached the authority: consult by key, then settle or retransmit. */
  | { kind: 'consult' };

/** A different body under the same key is refused before anything else is looked at. */
export function checkSameRequest(doc: Pick<BoundDocument, 'fingerprint'>, fingerprint: string, key: string): void {
  if (doc.fingerprint !== null && doc.fingerprint !== fingerprint) throw new DomainError('IDEMPOTENCIA_CORPO_DIVERGENTE', { idempotencyKey: key });
}

export function retryAction(doc: BoundDocument, now: Date): RetryAction {
  // Terminal, or an NFC-e in contingency (its own scheduler transmits it): nothing to carry on.
  if (!isOpen(doc.status)) return { kind: 'answer' };
  // A live attempt holds it: a second transmission of the key would race at the authority.
  if (isInFlight(doc, now)) return { kind: 'answer' };
  // Past the resend window (API.md, Limits) a note is no longer sent; it stays listed as indeterminate.
  if (now.getTime() - doc.createdAt.getTime() > RESEND_WINDOW_MS) return { kind: 'answer' };
  if (doc.transmissions === 0) {
    // Just numbered: the request that created it commits TRANSMITTING next. Only once it had as long
    // as a transmission's lease is it taken to have died (as reconciliation's first check assumes).
    if (now.getTime() - doc.createdAt.getTime() < TRANSMISSION_LEASE_MS) return { kind: 'answer' };
    return { kind: 'transmit' };
  }
  return { kind: 'consult' };
}

/**
 * Whether an answer describing this state may be replayed for the key as it is. A note still open
 * (or pending in contingency) will change: a later retry must see its state then, so the gateway
 * keeps no copy of such an answer and the retry reaches the emission again.
 */
export function isSettledAnswer(status: DocumentStatus): boolean {
  return isTerminal(status);
}
