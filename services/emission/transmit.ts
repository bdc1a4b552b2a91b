import type { DocumentRecord } from '../../lib/emission/document.js';
import { transition, type Transition } from '../../lib/emission/state.js';
import { assembleNfeProc } from '../../lib/emission/nfe-proc.js';
import type { AuthorizationResult, ConsultResult } from '../../lib/sefaz/results.js';
import type { AuthorityDetails } from './store.js';
import type { EmissionDeps } from './emit.js';
import { authorize, consult } from './ports.js';
import { now } from './stage-timer.js';
import { isSameKeyDuplicate, settleDuplicate } from '../../lib/emission/duplicate-key.js';

type Deps = Pick<EmissionDeps, 'store' | 'calls' | 'stages'>;

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
  // 204: an earlier attempt of ours holds this key at the authority; its registration is the answer.
  if (isSameKeyDuplicate(result)) result = settleDuplicate(await consult(deps.calls, target));
  const t1 = deps.stages ? now() : 0;
  const tr = outcome ? outcome(result) : transition(doc.status, { kind: 'authorization', result });
  const stored = await deps.store.applyOutcome(doc.id, doc.transmissions, `authorization:${result.kind}`, tr, detailsOf(result, signedXml));
  if (deps.stages) {
    deps.stages.record('authority', t1 - t0);
    deps.stages.record('outcome', now() - t1);
  }
  return { doc: stored, result };
}

/**
 * One reconciliation step for a claimed document: consult by key; a terminal answer ends it with
 * the normal event, "not found" retransmits the stored XML under the same key, a failure waits for
 * the next slot (already scheduled by the claim). The consult speaks for the attempt seen at the
 * claim: if a resend started another one meanwhile, its answer is not applied and nothing is
 * retransmitted (the newer attempt decides, or the next slot consults again).
 */
export async function reconcileOne(deps: Deps, doc: DocumentRecord): Promise<DocumentRecord> {
  const result = await consult(deps.calls, { issuerId: doc.issuerId, uf: doc.uf, model: doc.model, ambiente: doc.environment, accessKey: doc.accessKey! });
  const tr = transition(doc.status, { kind: 'consult', result });
  const xml = (await deps.store.xmlOf(doc.id))?.transmitted ?? null;
  if (tr.to === null && 'retransmit' in tr && tr.retransmit && xml) {
    const again = await deps.store.markTransmitting(doc.id, 'retransmit', { expectedAttempt: doc.transmissions });
    if (again.kind !== 'started') return again.doc;
    return transmit(deps, again.doc, xml);
  }
  return deps.store.applyOutcome(doc.id, doc.transmissions, `consult:${result.kind}`, tr, detailsOf(result, xml));
}
