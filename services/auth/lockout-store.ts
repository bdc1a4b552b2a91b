import type { Knex } from 'knex';
import { current, isLocked, recordFailure, type LockoutBucket } from '../../lib/auth/lockout.js';
import type { AuthDeps } from './context.js';

/**
 * Lockout buckets in Postgres, shared by every node: a failure is recorded under a row lock so
 * concurrent attempts on several nodes all count. Keys are `email:<addr>` and `ip:<addr>`.
 */
export function lockoutKeys(email: string, ip: string | undefined): string[] {
  return [`email:${email}`, `ip:${ip ?? 'unknown'}`];
}

function toBucket(row: any): LockoutBucket {
  return {
    failures: Number(row?.failures ?? 0),
    lastFailureAt: row?.last_failure_at ? new Date(row.last_failure_at) : null,
    lockedUntil: row?.locked_until ? new Date(row.locked_until) : null,
  };
}

export async function anyLocked(d: AuthDeps, keys: string[]): Promise<boolean> {
  const now = d.clock.now();
  const rows = await d.knex(d.t('lockout_buckets')).whereIn('bucket', keys);
  return rows.some((r: any) => isLocked(current(toBucket(r), now), now));
}

export async function recordFailures(d: AuthDeps, keys: string[]): Promise<void> {
  const now = d.clock.now();
  await d.knex.transaction(async (trx: Knex.Transaction) => {
    for (const bucket of [...keys].sort()) {
      // An upsert that touches the row locks it at once: the purge (SKIP LOCKED) then leaves it
      // alone, whereas with `do nothing` it could delete the row before the select below.
      await trx(d.t('lockout_buckets')).insert({ bucket, failures: 0 }).onConflict('bucket').merge(['bucket']);
      const row = await trx(d.t('lockout_buckets')).where({ bucket }).forUpdate().first();
      const next = recordFailure(toBucket(row), now);
      await trx(d.t('lockout_buckets')).where({ bucket }).update({ failures: next.failures, last_failure_at: next.lastFailureAt, locked_until: next.lockedUntil });
    }
  });
}

export async function clearBucket(d: AuthDeps, key: string): Promise<void> {
  await d.knex(d.t('lockout_buckets')).where({ bucket: key }).delete();
}
