import { DomainError } from '../../lib/errors/index.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import {
  afterConsult, consultsAfterOnlineFailure, contingencyInfo, contingencyOutcome, transmitsNow, type MonitorView,
} from '../../lib/emission/contingency.js';
import { AMBIENTE_NAMES } from '../../lib/contingency/availability.js';
import type { AuthorizationResult } from '../../lib/sefaz/results.js';
import type { ActionCaller } from './action-caller.js';
import type { ContingencyStore } from './contingency-store.js';
import type { EmissionDeps } from './deps.js';
import { consult } from './ports.js';
import { detailsOf, transmitAttempt } from './transmit.js';

/** An emission waits this long at most for the monitor's view; without it the UF is not "down". */
const MONITOR_TIMEOUT_MS = 2_000;

/**
 * The availability monitor's last confirmed view of a UF and environment
 * (v1.contingency-monitor.statusOf), or null when it cannot be asked (not running, timeout).
 */
export async function monitorView(c: ActionCaller, uf: string, ambiente: 1 | 2): Promise<MonitorView | null> {
  try {
    const view = await c.call<Partial<MonitorView> | null>('v1.contingency-monitor.statusOf', { uf, ambiente: AMBIENTE_NAMES[ambiente] }, { timeout: MONITOR_TIMEOUT_MS, retries: 0 });
    return { confirmedDown: view?.confirmedDown === true, status: view?.status ?? null };
  } catch {
    return null;
  }
}

/** Rebuilds the note being emitted under another cNF in contingency (the emission's own builder). */
export type ContingencyRebuild = () => Promise<{ cnf: string; built: BuiltDocument }>;

/**
 * After the online transmission of a new NFC-e that allowed contingency: an infrastructure failure
 * is settled by a consult by key (API.md, "NFC-e transmission failure" rows). Registered: its
 * outcome. Not found after a send that certainly reached nothing: the same number is re-keyed with
 * tpEmis 9 and enters CONTINGENCIA_PENDENTE. Not found after a send that may have reached the
 * authority: the re-key is held for the authority's processing window (the tpEmis 9 note is built
 * now and kept) and reconciliation decides after it, since the authority may still register the
 * first key (issue 20, defect 4). Held or no answer: 503 CONTINGENCIA_SITUACAO_INDETERMINADA, the
 * outcome arrives by webhook. Anything else (authorized, a fiscal rejection, processing) is
 * returned as it is.
 */
export async function settleOnlineFailure(
  deps: Pick<EmissionDeps, 'store' | 'calls' | 'now' | 'contingency' | 'onOutcome'>,
  doc: DocumentRecord, result: AuthorizationResult, justificativa: string, rebuild: ContingencyRebuild,
): Promise<DocumentRecord> {
  if (!deps.contingency || !consultsAfterOnlineFailure(result)) return doc;
  const answer = await consult(deps.calls, { issuerId: doc.issuerId, uf: doc.uf, model: doc.model, ambiente: doc.environment, accessKey: doc.accessKey! });
  const next = afterConsult(doc.status, result, answer, deps.now());
  if (next.kind === 'outcome') {
    const xml = (await deps.store.xmlOf(doc.id))?.transmitted ?? null;
    const stored = await deps.store.applyOutcome(doc.id, doc.transmissions, `consult:${answer.kind}`, next.transition, detailsOf(answer, xml));
    deps.onOutcome?.(stored, 'consult', answer);
    return stored;
  }
  if (next.kind === 'rekey') {
    const enteredAt = deps.now();
    const { cnf, built } = await rebuild();
    const { rekeyed, doc: after } = await deps.contingency.rekey(doc.id, doc.transmissions, cnf, built, contingencyInfo('falha-na-transmissao', justificativa, enteredAt));
    if (rekeyed) return after;
    doc = after; // another request or node moved it meanwhile: its outcome is not ours to tell
  }
  if (next.kind === 'hold') {
    const { cnf, built } = await rebuild();
    doc = (await deps.contingency.hold(doc.id, doc.transmissions, cnf, built, justificativa, next.until)).doc;
  }
  throw new DomainError('CONTINGENCIA_SITUACAO_INDETERMINADA', { invoiceId: doc.id, status: doc.status, accessKey: doc.accessKey });
}

export interface ContingencyRoundResult {
  expired: number;
  claimed: number;
  outcomes: { id: string; status: string }[];
}

/**
 * One round of the contingency scheduler on this node: the once-only expiry events, then the due
 * CONTINGENCIA_PENDENTE notes, each transmitted (its stored signed XML, same key) unless the
 * monitor confirms its UF down; an unknown view is tried (the claim already set the next try).
 */
export async function contingencyRound(
  deps: Pick<EmissionDeps, 'store' | 'calls' | 'stages'> & { contingency: ContingencyStore },
  limit: number, log: (err: Error, id: string) => void,
): Promise<ContingencyRoundResult> {
  const expired = await deps.contingency.expireDue(limit);
  const claimed = await deps.contingency.claimDue(limit);
  const outcomes: { id: string; status: string }[] = [];
  const views = new Map<string, Promise<MonitorView | null>>();
  for (const doc of claimed) {
    try {
      const key = `${doc.uf}:${doc.environment}`;
      if (!views.has(key)) views.set(key, monitorView(deps.calls, doc.uf, doc.environment));
      if (!transmitsNow(await views.get(key)!)) { outcomes.push({ id: doc.id, status: doc.status }); continue; }
      const claim = await deps.contingency.startAttempt(doc.id, doc.transmissions);
      if (claim.kind !== 'started') { outcomes.push({ id: doc.id, status: claim.doc.status }); continue; }
      const xml = (await deps.store.xmlOf(doc.id))!.transmitted!;
      const { doc: after } = await transmitAttempt(deps, claim.doc, xml, contingencyOutcome);
      outcomes.push({ id: doc.id, status: after.status });
    } catch (err) {
      log(err as Error, doc.id);
      outcomes.push({ id: doc.id, status: doc.status });
    }
  }
  return { expired: expired.length, claimed: claimed.length, outcomes };
}
