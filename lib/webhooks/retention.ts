/**
 * How long finished deliveries (and their attempts) are kept. A delivered row is history only
 * (`GET /v1/webhooks/logs`); an exhausted one (`dead`, in the DLQ, or a `failed` test delivery)
 * stays longer so a partner back from an outage can still see and retry it. Rows whose schedule
 * is not over (`pending`, `in_flight`) are never purged, however old.
 */
export interface RetentionPolicy {
  /** config.webhooks.retention.deliveredDays (WEBHOOK_RETENTION_DELIVERED_DAYS). */
  deliveredDays: number;
  /** config.webhooks.retention.exhaustedDays (WEBHOOK_RETENTION_FAILED_DAYS). */
  exhaustedDays: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { deliveredDays: 30, exhaustedDays: 90 };

/** Statuses in which a delivery's schedule is over (lib/webhooks/backoff.ts, afterAttempt). */
export const FINISHED_STATUSES = ['delivered', 'dead', 'failed'] as const;
export type FinishedStatus = (typeof FINISHED_STATUSES)[number];

/** One purge rule: rows in `statuses` that finished strictly before `finishedBefore`. */
export interface PurgeRule {
  statuses: readonly FinishedStatus[];
  finishedBefore: Date;
}

const DAY_MS = 86_400_000;

/** The purge rules at `now`: delivered rows after `deliveredDays`, dead and failed after `exhaustedDays`. */
export function purgeRules(now: Date, policy: RetentionPolicy): PurgeRule[] {
  for (const [name, days] of [['deliveredDays', policy.deliveredDays], ['exhaustedDays', policy.exhaustedDays]] as const) {
    if (!Number.isInteger(days) || days < 1) throw new RangeError(`retention ${name} must be a positive integer of days, got ${days}`);
  }
  return [
    { statuses: ['delivered'], finishedBefore: new Date(now.getTime() - policy.deliveredDays * DAY_MS) },
    { statuses: ['dead', 'failed'], finishedBefore: new Date(now.getTime() - policy.exhaustedDays * DAY_MS) },
  ];
}

