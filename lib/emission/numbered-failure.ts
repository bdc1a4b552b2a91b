/**
 * Once a document is numbered, every answer of its request names it (issue 20, defects 1 and 7):
 * a failure after that point — the database lost mid-way, a call cut, a fault of ours — answers
 * with `details.invoiceId` (an NFS-e: `details.nfseId`, the name its webhooks and refusals use) and
 * the last status seen, so the client consults that document (or retries under the same
 * Idempotency-Key, which carries it on) instead of guessing whether it exists.
 */
import { DomainError, isCatalogued } from '../errors/index.js';
import { isDependencyUnreachable } from '../errors/unavailable.js';
import type { DocumentStatus } from './state.js';

export interface NumberedFailure {
  /** What to throw instead. */
  error: unknown;
  /** An unexpected failure (a bug): worth a log line with its stack, which the answer no longer carries. */
  fault: boolean;
}

/** The details field naming the document: `invoiceId` for NF-e/NFC-e, `nfseId` for NFS-e. */
export type DocumentIdField = 'invoiceId' | 'nfseId';

export function numberedFailure(err: unknown, doc: { id: string; status: DocumentStatus }, idField: DocumentIdField = 'invoiceId'): NumberedFailure {
  const e = (err ?? {}) as { type?: unknown; code?: unknown; data?: unknown; message?: unknown; retryable?: unknown };
  const named = { [idField]: doc.id, status: doc.status };
  if (typeof e.type === 'string' && isCatalogued(e.type)) {
    const data = e.data && typeof e.data === 'object' && !Array.isArray(e.data) ? (e.data as Record<string, unknown>) : {};
    // A refusal (4xx) is the answer itself; a catalogued 5xx gains the document when it lacks it.
    if (Number(e.code) < 500 || typeof data[idField] === 'string') return { error: err, fault: false };
    return { error: new DomainError(e.type, { ...data, ...named }, typeof e.message === 'string' ? e.message : undefined), fault: false };
  }
  // An outage, or a transient failure Moleculer marks retryable (a call rejected or timed out).
  if (isDependencyUnreachable(err) || e.retryable === true) return { error: new DomainError('SERVICE_UNAVAILABLE', named), fault: false };
  return { error: new DomainError('INTERNAL_ERROR', named), fault: true };
}
