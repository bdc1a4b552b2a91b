import type { DocumentRecord } from '../../lib/emission/document.js';
import { checkSameRequest, retryAction } from '../../lib/emission/idempotent-retry.js';
import type { EmissionDeps } from './deps.js';
import { reconcileOne, transmit } from './transmit.js';
import { respond } from './answer.js';

/** The document a request's Idempotency-Key is bound to, as DocumentStore.findByIdempotencyKey gives it. */
export interface Bound {
  doc: DocumentRecord;
  fingerprint: string | null;
}

/**
 * A request whose Idempotency-Key already names a document (lib/emission/idempotent-retry.ts):
 * refused if its body differs, else the document's current state — carried on first when its
 * first attempt died before any answer: never sent, it is transmitted (same key, stored XML); sent,
 * it is consulted by key and settled, or retransmitted only when the authority does not know it.
 */
export async function continueBound(deps: Pick<EmissionDeps, 'store' | 'calls' | 'now' | 'stages'>, bound: Bound, key: string, fingerprint: string): Promise<ReturnType<typeof respond>> {
  checkSameRequest(bound, fingerprint, key);
  const { doc } = bound;
  const action = retryAction({ ...doc, fingerprint: bound.fingerprint }, deps.now());
  if (action.kind === 'answer') return respond(doc);
  if (action.kind === 'consult') return respond(await reconcileOne(deps, doc));
  // Started only if nothing else did meanwhile (expected attempt 0); otherwise that one's state.
  const claim = await deps.store.markTransmitting(doc.id, 'retry', { expectedAttempt: 0 });
  if (claim.kind !== 'started') return respond(claim.doc);
  const xml = (await deps.store.xmlOf(doc.id))!.transmitted!;
  return respond(await transmit(deps, claim.doc, xml));
}
