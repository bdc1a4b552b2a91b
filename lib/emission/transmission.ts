/**
 * Who may send a document to the authority now. Two transmissions of one access key in flight at
 * once race at the authority: the second is answered "204 Duplicidade de NF-e" (a rejection) while
 * the first may be authorized, so "the first terminal answer wins" could store REJECTED for an
 * authorized note. Hence every transmission is one numbered attempt (`transmissions`) holding a
 * lease (`transmitting_until`): a new attempt starts only from an open document that no live
 * attempt holds, and an answer counts only for the attempt it was sent with.
 *
 * The store evaluates these decisions on the row it holds locked (SELECT … FOR UPDATE), so they are
 * atomic across emission replicas; claimDue's SQL mirrors `isInFlight`.
 */
import { DomainError } from '../errors/index.js';
import { isOpen, type DocumentStatus } from './state.js';

/**
 * How long a transmission may be in flight before another node may take the document over. Longer
 * than one authority call can take from this service (broker timeout 90 s; the sefaz client's own
 * connect + read timeouts are 35 s), and equal to the first reconciliation delay
 * (lib/emission/reconciliation.ts), so a node that died mid-call is taken over at its first check.
 */
export const TRANSMISSION_LEASE_MS = 2 * 60_000;

export interface TransmissionState {
  status: DocumentStatus;
  /** End of the lease of the attempt in flight; null when no attempt holds the document. */
  transmittingUntil: Date | null;
  /** Number of the latest attempt (0: never transmitted). */
  transmissions: number;
}

export type TransmissionStart =
  /** Start attempt `attempt`, holding the document until `leaseUntil`. */
  | { kind: 'start'; attempt: number; leaseUntil: Date }
  /** Another attempt is in flight and its lease is alive. */
  | { kind: 'in-flight'; until: Date }
  /** Another attempt started after the one the caller based its decision on. */
  | { kind: 'superseded'; attempt: number }
  /** No longer open (terminal, or contingency): nothing may be transmitted. */
  | { kind: 'closed' };

/** A TRANSMITTING document whose lease has not expired: a live request is waiting for the authority. */
export function isInFlight(doc: Pick<TransmissionState, 'status' | 'transmittingUntil'>, now: Date): boolean {
  return doc.status === 'TRANSMITTING' && doc.transmittingUntil !== null && doc.transmittingUntil.getTime() > now.getTime();
}

/**
 * Whether a new attempt may start now. `expectedAttempt` is the attempt a caller saw when it
 * decided to transmit (reconciliation: the attempt it consulted for); if another attempt started
 * since, that decision is stale.
 */
export function transmissionStart(doc: TransmissionState, now: Date, expectedAttempt?: number): TransmissionStart {
  if (!isOpen(doc.status)) return { kind: 'closed' };
  if (isInFlight(doc, now)) return { kind: 'in-flight', until: doc.transmittingUntil! };
  if (expectedAttempt !== undefined && expectedAttempt !== doc.transmissions) return { kind: 'superseded', attempt: doc.transmissions };
  return { kind: 'start', attempt: doc.transmissions + 1, leaseUntil: new Date(now.getTime() + TRANSMISSION_LEASE_MS) };
}

/**
 * An answer (authorization or consult) belongs to the attempt it was obtained for; once a newer
 * attempt started, it must not overwrite what that attempt stores. Reconciliation consults by key
 * later and finds the authority's truth either way.
 */
export function isStaleAnswer(answeredAttempt: number, currentAttempt: number): boolean {
  return answeredAttempt !== currentAttempt;
}

/**
 * The refusal of a request that would start a second transmission while one is in flight (a resend
 * of the same `numero`). API.md names no code for it: a generic 409 with the current status, so the
 * caller consults the document (or waits for the webhook) instead of sending again.
 */
export function transmissionInFlightError(doc: { id: string; status: DocumentStatus; number: number; series: number }): DomainError {
  return new DomainError('DOCUMENTO_EM_TRANSMISSAO', { invoiceId: doc.id, status: doc.status, numero: doc.number, serie: doc.series });
}
