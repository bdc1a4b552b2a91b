import type { Knex } from 'knex';
import { purgeCutoffs, type PurgeCutoffs } from '../../lib/auth/purge.js';
import type { AuthDeps } from './context.js';

/**
 * Periodic deletion of dead auth rows; what is dead, and the grace period, is decided in
 * lib/auth/purge.ts. Every auth replica runs it on its own timer, without coordination:
 *
 * Each step is a plain idempotent DELETE of at most PURGE_BATCH rows, chosen with
 * `FOR UPDATE SKIP LOCKED` and repeated until a batch comes back short. Two nodes purging at
 * once split the rows instead of waiting on each other or deleting twice, a node that dies
 * mid-run leaves nothing half-done (each batch commits alone), no transaction stays open long
 * enough to block logins, and it behaves the same on PGlite. An advisory lock per run was the
 * alternative; it would save only the redundant index scans of the other replicas, at the cost
 * of a session-bound lock that must be held on one pooled connection for the whole run.
 */
export const PURGE_BATCH = 500;

export interface PurgeResult {
  usedMfaTokens: number;
  resetTokens: number;
  invites: number;
  refreshTokens: number;
  sessions: number;
  lockoutBuckets: number;
}

type Where = (q: Knex.QueryBuilder) => void;

/** Deletes every row of `table` matching `where`, a batch at a time; returns how many this node deleted. */
async function deleteInBatches(d: AuthDeps, table: string, key: string, where: Where, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const victims = d.knex(d.t(table)).select(key).where(where).limit(batch).forUpdate().skipLocked();
    // Counted from `returning`: PGlite's driver answers this delete with a raw result, not a count.
    const deleted: unknown = await d.knex(d.t(table)).whereIn(key, victims).del(key);
    if (!Array.isArray(deleted)) throw new Error(`purge of ${table}: unexpected delete result`);
    const n = deleted.length;
    total += n;
    if (n < batch) return total;
  }
}

function deadSession(c: PurgeCutoffs): Where {
  return (q) => q.where('expires_at', '<', c.deadBefore).orWhere('revoked_at', '<', c.deadBefore);
}

export async function purgeExpired(d: AuthDeps, graceMs: number, batch = PURGE_BATCH): Promise<PurgeResult> {
  const c = purgeCutoffs(d.clock.now(), graceMs);
  const t = d.t.bind(d);
  const usedMfaTokens = await deleteInBatches(d, 'used_mfa_tokens', 'jti', (q) => q.where('expires_at', '<', c.spentMfaTokensBefore), batch);
  const resetTokens = await deleteInBatches(d, 'reset_tokens', 'token_hash', (q) => q.where('expires_at', '<', c.deadBefore), batch);
  // The newest invite of a partner stays: re-sending an owner invite reads its address from it.
  const invites = await deleteInBatches(d, 'invites', 'token_hash', (q) => q.where('expires_at', '<', c.deadBefore)
    .whereExists((x) => x.select(d.knex.raw('1')).from(`${t('invites')} as newer`)
      .whereRaw('newer.partner_id = ??.partner_id', [t('invites')]).whereRaw('newer.created_at > ??.created_at', [t('invites')])), batch);
  // Refresh tokens before their sessions (foreign key). An expired refresh token goes even while
  // its session lives on: presenting it is a plain 401 either way.
  const refreshTokens = await deleteInBatches(d, 'refresh_tokens', 'token_hash', (q) => q.where('expires_at', '<', c.deadBefore)
    .orWhereIn('session_id', d.knex(t('sessions')).select('id').where(deadSession(c))), batch);
  // A session whose tokens another node still holds locked waits for the next run.
  const sessions = await deleteInBatches(d, 'sessions', 'id', (q) => q.where(deadSession(c))
    .whereNotExists((x) => x.select(d.knex.raw('1')).from(`${t('refresh_tokens')} as r`).whereRaw('r.session_id = ??.id', [t('sessions')])), batch);
  // greatest() skips nulls; a bucket that never recorded anything is as good as absent.
  const lockoutBuckets = await deleteInBatches(d, 'lockout_buckets', 'bucket',
    (q) => q.whereRaw(`coalesce(greatest(last_failure_at, locked_until), '-infinity'::timestamptz) < ?`, [c.lockoutQuietBefore]), batch);
  return { usedMfaTokens, resetTokens, invites, refreshTokens, sessions, lockoutBuckets };
}
