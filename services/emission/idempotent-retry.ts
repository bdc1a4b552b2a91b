import type { DocumentRecord } from '../../lib/emission/document.js';
import { checkSameRequest, retryAction, type BoundDocument } from '../../lib/emission/idempotent-retry.js';
import { numberedFailure, type DocumentIdField } from '../../lib/emission/numbered-failure.js';
import type { EmissionDeps } from './deps.js';
import { reconcileOne, transmit } from './transmit.js';
import { respond } from './answer.js';
import { KeyAlreadyBound } from './document-row.js';

/**
 * The Idempotency-Key binding shared by every emission (issue 20; NFS-e in issue 16): the key is
 * bound to its document in the numbering transaction, a retry finds that document before anything
 * else is looked at and answers — or carries on — it, and every failure after the numbering names it.
 * NF-e/NFC-e and NFS-e differ only in their store and how their document is sent and consulted.
 */

/** A document a key is bound to, with the fingerprint of the request that bound it. */
export interface Bound<D = DocumentRecord> {
  doc: D;
  fingerprint: string | null;
}

/** How a retry carries on a bound document of one kind. */
export interface CarryOn<D, R> {
  /** Its current state as the emission answers it. */
  answer(doc: D): R | Promise<R>;
  /** A transmission may have reached the authority: consult by key (idDps), then settle or retransmit. */
  consult(doc: D): Promise<R>;
  /** Never sent and its creating request is gone: start attempt 1 (expected 0) with the stored signed XML. */
  transmitStored(doc: D): Promise<R>;
}

/**
 * A request whose Idempotency-Key already names a document (lib/emission/idempotent-retry.ts):
 * refused if its body differs, else the document's current state — carried on first when its
 * first attempt died before any answer: never sent, it is transmitted (same key, stored XML); sent,
 * it is consulted by key and settled, or retransmitted only when the authority does not know it.
 */
export async function carryOnBound<D extends Omit<BoundDocument, 'fingerprint'>, R>(bound: Bound<D>, key: string, fingerprint: string, now: Date, how: CarryOn<D, R>): Promise<R> {
  checkSameRequest(bound, fingerprint, key);
  const action = retryAction({ ...bound.doc, fingerprint: bound.fingerprint }, now);
  if (action.kind === 'answer') return how.answer(bound.doc);
  if (action.kind === 'consult') return how.consult(bound.doc);
  return how.transmitStored(bound.doc);
}

/** The NF-e/NFC-e way of carrying a bound document on. */
export async function continueBound(deps: Pick<EmissionDeps, 'store' | 'calls' | 'now' | 'stages'>, bound: Bound, key: string, fingerprint: string): Promise<ReturnType<typeof respond>> {
  return carryOnBound(bound, key, fingerprint, deps.now(), {
    answer: respond,
    consult: async (doc) => respond(await reconcileOne(deps, doc)),
    async transmitStored(doc) {
      // Started only if nothing else did meanwhile (expected attempt 0); otherwise that one's state.
      const claim = await deps.store.markTransmitting(doc.id, 'retry', { expectedAttempt: 0 });
      if (claim.kind !== 'started') return respond(claim.doc);
      const xml = (await deps.store.xmlOf(doc.id))!.transmitted!;
      return respond(await transmit(deps, claim.doc, xml));
    },
  });
}

/**
 * The two moments a request meets its key's binding: before anything (`answerBound`: a retry
 * answers the bound document, or undefined when the key is free) and when its numbering was refused
 * because another request bound the key first (`boundMeanwhile`: that transaction released the
 * number, so the other request's document is the answer). `firstUse` (the gateway saw no earlier
 * use of the key: services/shared/caller.ts): nothing can be bound yet, so the first moment does not
 * look (issue 18: one statement less per keyed note); the second still does.
 */
export function keyBinding<B, R>(key: string | null, find: (key: string) => Promise<B | undefined>, answer: (found: B, key: string) => Promise<R>, firstUse = false) {
  const lookUp = async (): Promise<R | undefined> => {
    const found = key ? await find(key) : undefined;
    return found ? answer(found, key!) : undefined;
  };
  const answerBound = async (): Promise<R | undefined> => (firstUse ? undefined : lookUp());
  const boundMeanwhile = async (err: unknown): Promise<R> => {
    const answered = err instanceof KeyAlreadyBound ? await lookUp() : undefined;
    if (answered === undefined) throw err;
    return answered;
  };
  return { answerBound, boundMeanwhile };
}

/** Runs what follows the numbering of `last()`'s document; a failure answers naming it (lib/emission/numbered-failure.ts). */
export async function guarded<T>(
  reportFault: ((err: unknown, id: string) => void) | undefined, last: () => { id: string; status: DocumentRecord['status'] }, run: () => Promise<T>, idField: DocumentIdField = 'invoiceId',
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const doc = last();
    const { error, fault } = numberedFailure(err, doc, idField);
    if (fault) reportFault?.(err, doc.id);
    throw error;
  }
}
