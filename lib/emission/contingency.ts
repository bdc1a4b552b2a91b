/**
 * NFC-e offline contingency (tpEmis 9) decisions (API.md, "States and transitions": NFC-e
 * emission, NFC-e transmission failure, CONTINGENCIA_PENDENTE rows; Limits > Contingency). Pure:
 * the emission service asks and persists. NF-e (55) never enters this flow, and a fiscal rejection
 * never becomes contingency.
 */
import type { Model } from '../nfe/types.js';
import type { AuthorizationResult, ConsultResult } from '../sefaz/results.js';
import { transition, type DocumentStatus, type Transition } from './state.js';
import { TRANSMISSION_LEASE_MS, type TransmissionStart } from './transmission.js';

export const CONTINGENCY_TP_EMIS = 9;
/** API.md, Limits > Contingency: transmission deadline 24 hours. */
export const CONTINGENCY_DEADLINE_MS = 24 * 60 * 60 * 1000;

/** Why the note was issued in contingency (`contingencia.motivo`). */
export const CONTINGENCY_REASONS = ['solicitada', 'autorizadora-indisponivel', 'falha-na-transmissao'] as const;
export type ContingencyReason = (typeof CONTINGENCY_REASONS)[number];

export interface ContingencyInfo {
  motivo: ContingencyReason;
  /** xJust as printed (the caller's `justificativaContingencia` or the default text). */
  justificativa: string;
  /** Entry + 24 h. */
  prazo: Date;
}

/** The monitor's answer as the decision reads it; null when the monitor could not be asked. */
export interface MonitorView {
  confirmedDown: boolean;
  status?: 'up' | 'down' | null;
}

/** `contingencia: false` forbids it; NF-e never has it. */
export function contingencyAllowed(model: Model, requested: boolean | undefined): boolean {
  return model === '65' && requested !== false;
}

/**
 * Whether a new NFC-e is built directly in contingency, before any transmission: asked for
 * (`contingencia: true`), or the issuer's UF confirmed down by the monitor. An unavailable monitor
 * (null) is not "down": only the authority's own answer is.
 */
export function entryAtEmission(model: Model, requested: boolean | undefined, monitor: MonitorView | null): ContingencyReason | null {
  if (!contingencyAllowed(model, requested)) return null;
  if (requested === true) return 'solicitada';
  if (monitor?.confirmedDown === true) return 'autorizadora-indisponivel';
  return null;
}

/** Whether the monitor must be asked at all for this emission (it only matters when not already decided). */
export function needsMonitor(model: Model, requested: boolean | undefined): boolean {
  return contingencyAllowed(model, requested) && requested !== true;
}

/**
 * After the online transmission of a new NFC-e: an infrastructure failure (nothing reached the
 * authority, or it may have) leads to a consult by key. A 204 settled as unknown means the key did
 * reach the authority, so it is never re-keyed; answers (authorized, rejected, processing) never are.
 */
export function consultsAfterOnlineFailure(result: AuthorizationResult): boolean {
  if (result.kind === 'failed') return true;
  return result.kind === 'unknown' && result.reason !== 'duplicate-key';
}

/**
 * How long after we stopped waiting for an authorization answer the authority may still register
 * that send. A read timeout does not cancel a request the authority already took: the fault runs
 * of issue 20 saw a note committed 40 s after it was sent, 10 s after the client gave up at 30 s.
 * So a consult by key that finds nothing within this window proves nothing, and re-keying then
 * (a new tpEmis 9 key for the same number) risks a printed receipt whose number the authority
 * gives to the first key. Two minutes: four times that margin past the 30 s read timeout, and the
 * first reconciliation delay (lib/emission/reconciliation.ts), so the deciding consult is the
 * first scheduled one. The authority publishes no such figure; this is our bound.
 */
export const AUTHORITY_PROCESSING_WINDOW_MS = 2 * 60_000;

export type AfterConsult =
  /** The authority never saw the tpEmis 1 key: the same number is re-keyed with tpEmis 9. */
  | { kind: 'rekey' }
  /**
   * The send may have reached the authority (after-send `unknown`) and the key is not there yet:
   * no re-key before `until`; a consult after it that still finds nothing re-keys (reconciliation).
   */
  | { kind: 'hold'; until: Date }
  /** The authority registered the key: its outcome is stored (201 with the real protocol). */
  | { kind: 'outcome'; transition: Transition }
  /** No answer: reconciliation goes on; 503 CONTINGENCIA_SITUACAO_INDETERMINADA, outcome by webhook. */
  | { kind: 'indeterminate' };

/**
 * The consult by key after the online transmission `sent` failed by infrastructure, at `now` (when
 * that consult was answered). "Not found" re-keys at once only when nothing reached the authority
 * (`failed`); after an `unknown` it holds the re-key for the authority's processing window.
 */
export function afterConsult(from: DocumentStatus, sent: AuthorizationResult, consult: ConsultResult, now: Date): AfterConsult {
  switch (consult.kind) {
    case 'not-found':
      if (sent.kind === 'failed') return { kind: 'rekey' };
      return { kind: 'hold', until: new Date(now.getTime() + AUTHORITY_PROCESSING_WINDOW_MS) };
    case 'authorized':
    case 'denied':
    case 'canceled':
      return { kind: 'outcome', transition: transition(from, { kind: 'consult', result: consult }) };
    // A refused consult says nothing about the note; a failed one says nothing at all.
    default: return { kind: 'indeterminate' };
  }
}

/** A held re-key (afterConsult `hold`): the attempt whose send may still be processed, and the end of its window. */
export interface ContingencyHold {
  attempt: number;
  rekeyAfter: Date;
}

/**
 * Whether a reconciliation consult that found nothing re-keys a held note now: it must have been
 * asked after the window, and no other transmission of the key may have started since the hold
 * (a resend or retransmission brings its own uncertainty, and reconciliation owns it as usual).
 */
export function heldRekeyDue(hold: ContingencyHold, doc: { status: DocumentStatus; transmissions: number }, consultAskedAt: Date): boolean {
  if (doc.status !== 'TRANSMITTING' && doc.status !== 'ERROR') return false;
  return doc.transmissions === hold.attempt && consultAskedAt.getTime() >= hold.rekeyAfter.getTime();
}

export function contingencyInfo(motivo: ContingencyReason, justificativa: string, enteredAt: Date): ContingencyInfo {
  return { motivo, justificativa, prazo: new Date(enteredAt.getTime() + CONTINGENCY_DEADLINE_MS) };
}

/** The `contingencia` block of responses and events. */
export function contingencyView(info: ContingencyInfo) {
  return { motivo: info.motivo, justificativa: info.justificativa, prazo: info.prazo.toISOString() };
}

/**
 * The scheduler may start a transmission of a CONTINGENCIA_PENDENTE note now: a note in any other
 * state is not the scheduler's (reconciliation or a terminal state owns it); `expectedAttempt` is
 * the attempt seen at the claim, so a concurrent change makes the claim stale.
 */
export function contingencyTransmissionStart(doc: { status: DocumentStatus; transmissions: number }, now: Date, expectedAttempt: number): TransmissionStart {
  if (doc.status !== 'CONTINGENCIA_PENDENTE') return { kind: 'closed' };
  if (doc.transmissions !== expectedAttempt) return { kind: 'superseded', attempt: doc.transmissions };
  return { kind: 'start', attempt: doc.transmissions + 1, leaseUntil: new Date(now.getTime() + TRANSMISSION_LEASE_MS) };
}

/** Transmit when the UF is not confirmed down; unknown (no monitor answer) is tried, with backoff. */
export function transmitsNow(monitor: MonitorView | null): boolean {
  return monitor?.confirmedDown !== true;
}

/** Delay before the next scheduled try after `tries` tries (1, 2, 5, 10, then every 15 minutes). */
const TRY_SCHEDULE_MS = [60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000];
const MAX_TRY_DELAY_MS = 15 * 60_000;

export function nextContingencyTryAt(tries: number, now: Date): Date {
  if (!Number.isInteger(tries) || tries < 0) throw new RangeError(`tries must be a non-negative integer, got ${tries}`);
  return new Date(now.getTime() + (TRY_SCHEDULE_MS[tries] ?? MAX_TRY_DELAY_MS));
}

/**
 * The outcome of a scheduled contingency transmission: the normal table, except that a failure
 * before sending returns the note to CONTINGENCIA_PENDENTE (nothing reached the authority; the
 * scheduler tries again) instead of ERROR. Unknown and processing stay TRANSMITTING and are
 * consulted by key by reconciliation, which retransmits the same stored XML on "not found".
 */
export function contingencyOutcome(result: AuthorizationResult): Transition {
  if (result.kind === 'failed') return { to: 'CONTINGENCIA_PENDENTE', motivo: `Falha de infraestrutura antes do envio (${result.reason}): ${result.detail}; nova tentativa agendada.`, event: null };
  return transition('TRANSMITTING', { kind: 'authorization', result });
}

/** Deadline passed and no expiry event yet, for a note still without authorization. */
export function isContingencyExpired(doc: { status: DocumentStatus; tpEmis: number; contingencia?: ContingencyInfo | null }, expiredMarked: boolean, now: Date): boolean {
  if (doc.tpEmis !== CONTINGENCY_TP_EMIS || !doc.contingencia || expiredMarked) return false;
  if (doc.status === 'AUTHORIZED' || doc.status === 'REJECTED' || doc.status === 'DENEGADA' || doc.status === 'CANCELADA') return false;
  return doc.contingencia.prazo.getTime() <= now.getTime();
}
