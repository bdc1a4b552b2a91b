import type { DocumentRecord } from '../../lib/emission/document.js';
import { isTerminal, transition, type Transition } from '../../lib/emission/state.js';
import { assembleNfeProc } from '../../lib/emission/nfe-proc.js';
import type { AuthorizationResult, ConsultResult } from '../../lib/sefaz/results.js';
import type { AuthorityDetails } from './store.js';
import type { EmissionDeps } from './deps.js';
import { authorize, consult } from './ports.js';
import { now } from './stage-timer.js';
import { isSameKeyDuplicate, keyNamedByDuplicate, settleDuplicate, settleHeldKey } from '../../lib/emission/duplicate-key.js';
import { heldRekeyDue } from '../../lib/emission/contingency.js';

type Deps = Pick<EmissionDeps, 'store' | 'calls' | 'stages' | 'contingency' | 'onOutcome'>;

/** Details to store with an authority answer: protocol and nfeProc, or erros[] verbatim. */
export function detailsOf(result: AuthorizationResult | ConsultResult, signedXml: string | null): AuthorityDetails {
  switch (result.kind) {
    case 'authorized':
      return {
        protocol: result.protocol,
        authorizedAt: new Date(result.receivedAt),
        ...(signedXml ? { authorizedXml: assembleNfeProc(signedXml, result.protNFeXml) } : {}),
      };
    case 'rejected':
    case 'denied':
      return {
        erros: [{ codigo: String(result.cStat), descricao: result.xMotivo }],
        ...('protocol' in result && result.protocol ? { protocol: result.protocol } : {}),
      };
    default:
      return {};
  }
}

/**
 * Sends a document already committed as TRANSMITTING (`doc` as markTransmitting returned it: its
 * `transmissions` is this attempt) and stores what the authority said for that attempt. Called with
 * no transaction open (the outcome is written in its own).
 */
export async function transmit(deps: Deps, doc: DocumentRecord, signedXml: string): Promise<DocumentRecord> {
  return (await transmitAttempt(deps, doc, signedXml)).doc;
}

/**
 * `transmit`, also answering the authority's result (the NFC-e contingency decides on it).
 * `outcome` replaces the normal transition table (a contingency note's transmission).
 */
export async function transmitAttempt(deps: Deps, doc: DocumentRecord, signedXml: string, outcome?: (result: AuthorizationResult) => Transition): Promise<{ doc: DocumentRecord; result: AuthorizationResult }> {
  const t0 = deps.stages ? now() : 0;
  const target = { issuerId: doc.issuerId, uf: doc.uf, model: doc.model, ambiente: doc.environment, accessKey: doc.accessKey! };
  let result = await authorize(deps.calls, { ...target, signedNfeXml: signedXml });
  let sentXml = signedXml;
  // 204: an earlier attempt of ours holds this key at the authority; its registration is the answer.
  if (isSameKeyDuplicate(result)) result = settleDuplicate(await consult(deps.calls, target));
  else {
    // 539 naming a key this document held: the authority registered the number under that key.
    const held = await settleOnHeldKey(deps, doc, result);
    if (held) {
      result = held.result;
      if (held.adoptedXml) sentXml = held.adoptedXml; // nfeProc of the key taken back
    }
  }
  const t1 = deps.stages ? now() : 0;
  const tr = outcome ? outcome(result) : transition(doc.status, { kind: 'authorization', result });
  // `doc` is the row as this attempt wrote it: a terminal answer is stored in one statement (store.ts).
  const stored = await deps.store.applyOutcome(doc.id, doc.transmissions, `authorization:${result.kind}`, tr, detailsOf(result, sentXml), doc);
  deps.onOutcome?.(stored, 'authorization', result);
  if (deps.stages) {
    deps.stages.record('authority', t1 - t0);
    deps.stages.record('outcome', now() - t1);
  }
  return { doc: stored, result };
}

/**
 * A 539 whose xMotivo names a key this document held before (it was re-keyed into contingency while
 * the authority was still processing the first send: issue 20, defect 4). That key is consulted:
 * registered (authorized or denied), the document takes it back with the XML signed under it, and
 * the answer is the consult's, so the note ends AUTHORIZED with that key's protocol and nfeProc.
 * Not settled: unknown, never REJECTED; reconciliation consults again. Null when the 539 names no
 * key of this document (another note holds the number: a real rejection) or the answer is no 539.
 */
async function settleOnHeldKey(deps: Deps, doc: DocumentRecord, result: AuthorizationResult): Promise<{ result: AuthorizationResult; adoptedXml?: string } | null> {
  const named = keyNamedByDuplicate(result);
  if (!named || named === doc.accessKey || !deps.contingency) return null;
  const previous = await deps.contingency.previousKey(doc.id, named);
  if (!previous) return null;
  const answer = await consult(deps.calls, { issuerId: doc.issuerId, uf: doc.uf, model: doc.model, ambiente: doc.environment, accessKey: named });
  const settled = settleHeldKey(answer, named);
  if (settled.kind !== 'authorized' && settled.kind !== 'denied') return { result: settled };
  if (!(await deps.contingency.adoptPrevious(doc.id, doc.transmissions, previous))) {
    // Another attempt started or the note settled meanwhile: this answer is not ours to apply.
    return { result: { kind: 'unknown', reason: 'duplicate-key', detail: `539 (chave anterior ${named}); a nota mudou durante a consulta` } };
  }
  return { result: settled, adoptedXml: previous.signedXml };
}

/**
 * One reconciliation step for a claimed document: consult by key; a terminal answer ends it with
 * the normal event, "not found" retransmits the stored XML under the same key, a failure waits for
 * the next slot (already scheduled by the claim). The consult speaks for the attempt seen at the
 * claim: if a resend started another one meanwhile, its answer is not applied and nothing is
 * retransmitted (the newer attempt decides, or the next slot consults again).
 */
export async function reconcileOne(deps: Deps & Pick<EmissionDeps, 'now'>, doc: DocumentRecord): Promise<DocumentRecord> {
  const askedAt = deps.now();
  const result = await consult(deps.calls, { issuerId: doc.issuerId, uf: doc.uf, model: doc.model, ambiente: doc.environment, accessKey: doc.accessKey! });
  // An NFC-e whose re-key into contingency was held (lib/emission/contingency.ts AUTHORITY_PROCESSING_WINDOW_MS):
  // "not found" past the window re-keys it; within it, nothing is sent.
  const hold = result.kind === 'not-found' && deps.contingency ? await deps.contingency.holdOf(doc.id) : null;
  if (hold && hold.attempt === doc.transmissions) {
    if (!heldRekeyDue(hold, doc, askedAt)) return doc;
    return (await deps.contingency!.rekeyHeld(doc.id, askedAt)).doc;
  }
  const tr = transition(doc.status, { kind: 'consult', result });
  const xml = (await deps.store.xmlOf(doc.id))?.transmitted ?? null;
  if (tr.to === null && 'retransmit' in tr && tr.retransmit && xml) {
    const again = await deps.store.markTransmitting(doc.id, 'retransmit', { expectedAttempt: doc.transmissions });
    if (again.kind !== 'started') return again.doc;
    return transmit(deps, again.doc, xml);
  }
  const after = await deps.store.applyOutcome(doc.id, doc.transmissions, `consult:${result.kind}`, tr, detailsOf(result, xml));
  deps.onOutcome?.(after, 'consult', result);
  // Settled under its first key (the authority registered it late): the held tpEmis 9 note is moot.
  if (doc.model === '65' && isTerminal(after.status)) await deps.contingency?.dropHold(doc.id);
  return after;
}
