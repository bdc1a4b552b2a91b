import { RESET_AFTER_MS, type LockoutBucket } from './lockout.js';

/**
 * What the periodic purge of the auth service may delete (services/auth/purge.ts runs it).
 * A row goes once it has been dead for longer than the grace period, which keeps recent
 * sessions, tokens and lockouts around for audit. "Dead" means it can no longer change any
 * answer of the API:
 * - sessions: expired or revoked, whichever came first (a revoked session never comes back);
 * - refresh, reset and invite tokens: expired (an expired token is refused like an unknown one);
 * - spent mfa tokens: expired, and never sooner than MFA_SKEW_MARGIN_MS after expiry, because
 *   the row is what refuses a second use while the JWT itself still verifies on a node whose
 *   clock runs behind;
 * - lockout buckets: reset by the quiet hour (lockout.ts), so deleting one is indistinguishable
 *   from keeping it.
 */
export const MFA_SKEW_MARGIN_MS = 5 * 60_000;

export interface PurgeCutoffs {
  /** Sessions and tokens that died before this instant are purgeable. */
  deadBefore: Date;
  /** Spent mfa tokens that expired before this instant are purgeable. */
  spentMfaTokensBefore: Date;
  /** Lockout buckets quiet (last failure or end of lock) since before this instant are purgeable. */
  lockoutQuietBefore: Date;
}

export function purgeCutoffs(now: Date, graceMs: number): PurgeCutoffs {
  if (!Number.isInteger(graceMs) || graceMs < 0) throw new RangeError(`grace must be a non-negative integer of milliseconds, got ${graceMs}`);
  const deadBefore = new Date(now.getTime() - graceMs);
  return {
    deadBefore,
    spentMfaTokensBefore: new Date(now.getTime() - Math.max(graceMs, MFA_SKEW_MARGIN_MS)),
    lockoutQuietBefore: new Date(deadBefore.getTime() - RESET_AFTER_MS),
  };
}

/** When a session stopped being usable: its expiry or its revocation, whichever came first. */
export function sessionDeadAt(session: { expiresAt: Date; revokedAt: Date | null }): Date {
  return session.revokedAt && session.revokedAt < session.expiresAt ? session.revokedAt : session.expiresAt;
}

/** Dead strictly before the cutoff: a row exactly at the end of its grace is still kept. */
export function isPurgeable(deadAt: Date, cutoff: Date): boolean {
  return deadAt.getTime() < cutoff.getTime();
}

/** The last moment a lockout bucket was active (null: it never recorded anything). */
export function lockoutQuietSince(bucket: LockoutBucket): Date | null {
  const last = Math.max(bucket.lastFailureAt?.getTime() ?? -Infinity, bucket.lockedUntil?.getTime() ?? -Infinity);
  return Number.isFinite(last) ? new Date(last) : null;
}

export function isLockoutBucketPurgeable(bucket: LockoutBucket, cutoffs: PurgeCutoffs): boolean {
  const quiet = lockoutQuietSince(bucket);
  return quiet === null || isPurgeable(quiet, cutoffs.lockoutQuietBefore);
}
