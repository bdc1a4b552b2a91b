/**
 * Cluster events (Moleculer broadcasts, not partner webhooks) about an authority's availability,
 * sent by the sefaz node (services/sefaz/recovery-probes.ts) and the availability monitor. Each is
 * a nudge: the state it leads to is committed in Postgres by whoever reacts, and a lost event only
 * leaves the work to the regular schedules (monitor interval, reconciliation).
 */
export const AUTHORITY_EVENTS = {
  /** `{ uf, model, ambiente }`: a sefaz node's circuit for that authority opened. The monitor checks the UF now. */
  circuitOpened: 'sefaz.circuit.opened',
  /** `{ uf, ambiente, model? }`: the authority answers again (circuit closed, or the monitor saw it back up). Emission retransmits notes that failed before sending. */
  recovered: 'sefaz.authority.recovered',
  /** `{ uf, model, ambiente, cStat, xMotivo, observedAt }`: 107/108/109 read in an answer to someone other than the monitor. */
  observed: 'sefaz.status.observed',
  /** `{ uf, ambiente }` (ambiente by name): the monitor recorded a transition. Every monitor drops what it keeps of that row. */
  statusChanged: 'contingency-monitor.status.changed',
} as const;

export interface AuthorityRecoveredPayload {
  uf: string;
  ambiente: 1 | 2;
  /** Absent: every model of the UF and environment (the monitor's view is per UF). */
  model?: '55' | '65';
}
