import type { Knex } from 'knex';
import type { PurgeRule } from '../../lib/webhooks/retention.js';

export interface PurgeOptions {
  /** Rows deleted per statement (one short transaction each). */
  batchSize: number;
  /** Upper bound of statements per run; a larger backlog is finished by the next runs. */
  maxBatches: number;
}

/**
 * Deletes finished deliveries past retention (their attempts go with them: ON DELETE CASCADE).
 *
 * Several replicas run this on their own timers, with no coordination, by design: each batch is
 * one `DELETE … WHERE id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)`, so two nodes purging at
 * once take disjoint rows and neither waits for the other, and deleting is idempotent (a row
 * already gone is simply not found). An advisory lock was the alternative and is worse here: a
 * session lock belongs to one pooled connection (and on PGlite every node shares the single
 * session, so it would exclude nobody), and a transaction-scoped one would keep one transaction
 * open for the whole purge. Short batches keep row locks and WAL bursts small; the rows are never
 * ones the scheduler claims (it only takes pending and in-flight rows).
 *
 * "Never delete a row with a pending schedule": the status and `next_attempt_at is null` are in
 * the locking SELECT and again in the DELETE, and a row a DLQ retry is rescheduling at that moment
 * is row-locked by it, so SKIP LOCKED passes over it; once rescheduled it is pending and no longer
 * matches.
 */
export async function purgeFinished(knex: Knex, table: string, rules: readonly PurgeRule[], opts: PurgeOptions): Promise<number> {
  let total = 0;
  for (const rule of rules) {
    const finishedPastRetention = (q: Knex.QueryBuilder) => q
      .whereIn('status', rule.statuses as string[])
      .andWhere('updated_at', '<', rule.finishedBefore)
      .whereNull('next_attempt_at');
    for (let batch = 0; batch < opts.maxBatches; batch++) {
      const victims = finishedPastRetention(knex(table).select('id')).orderBy('updated_at').limit(opts.batchSize).forUpdate().skipLocked();
      const deleted: number = await finishedPastRetention(knex(table).whereIn('id', victims)).delete();
      total += deleted;
      if (deleted < opts.batchSize) break;
    }
  }
  return total;
}
