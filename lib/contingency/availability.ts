import { SERVICE_DOWN, SERVICE_UP } from '../sefaz/cstat.js';
import type { InfrastructureReason, StatusResult } from '../sefaz/results.js';

/**
 * The availability monitor's rule (API.md, Events > `sefaz.status.changed`): a UF authority is
 * `up` or `down` only when the authority itself says so (107 operational; 108/109 stopped), and an
 * event is emitted only on a transition between two confirmed states. Everything else is our own
 * failure (network, timeout, TLS refusal of our certificate, an open breaker, or an authority answer
 * that is about us rather than about the service, e.g. 656 consumo indevido or 280-287 certificate
 * refusals): it never produces `down`, keeps the last confirmed state and is recorded apart.
 */
export type AmbienteName = 'producao' | 'homologacao';
export type AvailabilityStatus = 'up' | 'down';

export const AMBIENTE_NAMES: Readonly<Record<1 | 2, AmbienteName>> = { 1: 'producao', 2: 'homologacao' };
export const AMBIENTE_CODES: Readonly<Record<AmbienteName, 1 | 2>> = { producao: 1, homologacao: 2 };

/** What the authority last confirmed for one UF and ambiente. */
export interface ConfirmedState {
  status: AvailabilityStatus;
  cStat: number;
  xMotivo: string;
  /** ISO 8601 (UTC) of the answer that confirmed it. */
  checkedAt: string;
}

/** `data` of `sefaz.status.changed`, exactly the spec's fields. */
export type StatusChangedData = {
  uf: string;
  status: AvailabilityStatus;
  cStat: number;
  xMotivo: string;
  ambiente: AmbienteName;
  checkedAt: string;
};

export type OwnFailureReason = InfrastructureReason | 'authority-refused-monitor';

export interface OwnFailure {
  reason: OwnFailureReason;
  detail: string;
  at: string;
  /** Set when the authority answered, but about us (e.g. 656), not about its service. */
  cStat?: number;
  xMotivo?: string;
}

export type Decision =
  /** No confirmed state before: recorded, nothing emitted (a transition needs a previous state). */
  | { kind: 'first'; state: ConfirmedState }
  /** Same status confirmed again (cStat/xMotivo may differ, e.g. 108 → 109): refreshed, nothing emitted. */
  | { kind: 'unchanged'; state: ConfirmedState }
  /** A confirmed up ↔ down change: stored with its event in one transaction. */
  | { kind: 'transition'; state: ConfirmedState; event: StatusChangedData }
  /** Our own failure: the confirmed state is kept as it was. */
  | { kind: 'own-failure'; failure: OwnFailure };

/** The authority's own answer about its service, or null when the answer is not one of those. */
function confirmedStatus(cStat: number): AvailabilityStatus | null {
  if (cStat === SERVICE_UP) return 'up';
  if (SERVICE_DOWN.has(cStat)) return 'down';
  return null;
}

export function decideAvailability(input: {
  uf: string;
  ambiente: AmbienteName;
  previous: ConfirmedState | null;
  result: StatusResult;
  now: Date;
}): Decision {
  const { result, previous, now } = input;
  const at = now.toISOString();
  if (result.kind === 'failed') return { kind: 'own-failure', failure: { reason: result.reason, detail: result.detail, at } };
  const status = confirmedStatus(result.cStat);
  if (!status) {
    return {
      kind: 'own-failure',
      failure: { reason: 'authority-refused-monitor', detail: `cStat ${result.cStat} is not a service status (107/108/109)`, at, cStat: result.cStat, xMotivo: result.xMotivo },
    };
  }
  // The status result's own timestamp is the moment the answer was read; kept in UTC.
  const checkedAt = toIsoUtc(result.checkedAt, now);
  const state: ConfirmedState = { status, cStat: result.cStat, xMotivo: result.xMotivo, checkedAt };
  if (!previous) return { kind: 'first', state };
  if (previous.status === status) return { kind: 'unchanged', state };
  return {
    kind: 'transition',
    state,
    event: { uf: input.uf, status, cStat: result.cStat, xMotivo: result.xMotivo, ambiente: input.ambiente, checkedAt },
  };
}

function toIsoUtc(value: string, fallback: Date): string {
  const t = Date.parse(value);
  return Number.isNaN(t) ? fallback.toISOString() : new Date(t).toISOString();
}

/**
 * Whether the monitor's view says the UF's authority is stopped: the input the NFC-e contingency
 * decision will use (API.md, States and transitions, "the availability monitor sees the issuer UF
 * down"). Only a confirmed `down` counts; an unknown UF or our own failures never do.
 */
export function isConfirmedDown(state: ConfirmedState | null): boolean {
  return state?.status === 'down';
}
