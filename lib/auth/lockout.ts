/**
 * Login lockout (API.md, Authentication > Login lockout): per e-mail and per IP, 5/10/15/20
 * failures lock for 1 min / 15 min / 1 h / 4 h. A bucket with no new failure for 1 hour resets;
 * the hour is counted from the end of a running lock (otherwise the 1 h lock would reset the
 * bucket as it expires and the 20th failure could never be reached). Attempts while locked are
 * refused without counting: the schedule counts evaluated failures only.
 */
export interface LockoutBucket {
  failures: number;
  lastFailureAt: Date | null;
  lockedUntil: Date | null;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Lock duration after the 5th, 10th, 15th and 20th failure; every further 5th repeats the last. */
export const LOCK_STEPS_MS = [1 * MINUTE, 15 * MINUTE, 1 * HOUR, 4 * HOUR] as const;
export const FAILURES_PER_STEP = 5;
export const RESET_AFTER_MS = 1 * HOUR;

export const EMPTY_BUCKET: LockoutBucket = Object.freeze({ failures: 0, lastFailureAt: null, lockedUntil: null });

export function isLocked(bucket: LockoutBucket, now: Date): boolean {
  return !!bucket.lockedUntil && bucket.lockedUntil.getTime() > now.getTime();
}

/** The bucket as it stands at `now`, after the 1-hour quiet reset. */
export function current(bucket: LockoutBucket, now: Date): LockoutBucket {
  if (isLocked(bucket, now)) return bucket;
  const quietSince = Math.max(bucket.lastFailureAt?.getTime() ?? 0, bucket.lockedUntil?.getTime() ?? 0);
  if (bucket.lastFailureAt && now.getTime() - quietSince >= RESET_AFTER_MS) return EMPTY_BUCKET;
  return bucket;
}

/** The bucket after one more evaluated failure at `now`. */
export function recordFailure(bucket: LockoutBucket, now: Date): LockoutBucket {
  const base = current(bucket, now);
  if (isLocked(base, now)) return base;
  const failures = base.failures + 1;
  let lockedUntil = base.lockedUntil;
  if (failures % FAILURES_PER_STEP === 0) {
    const step = Math.min(failures / FAILURES_PER_STEP, LOCK_STEPS_MS.length) - 1;
    lockedUntil = new Date(now.getTime() + LOCK_STEPS_MS[step]!);
  }
  return { failures, lastFailureAt: now, lockedUntil };
}
