import test from 'ava';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { current, EMPTY_BUCKET, recordFailure, RESET_AFTER_MS, type LockoutBucket } from '../../../lib/auth/lockout.js';
import { isLockoutBucketPurgeable, isPurgeable, lockoutQuietSince, MFA_SKEW_MARGIN_MS, purgeCutoffs, sessionDeadAt } from '../../../lib/auth/purge.js';

const now = new Date('2026-06-01T12:00:00Z');
const DAY = 24 * 3600_000;
const GRACE = 7 * DAY;
const ago = (ms: number) => new Date(now.getTime() - ms);

test('purgeCutoffs: dead rows go after the grace; lockout buckets after the quiet hour plus the grace', (t) => {
  t.deepEqual(purgeCutoffs(now, GRACE), { deadBefore: ago(GRACE), spentMfaTokensBefore: ago(GRACE), lockoutQuietBefore: ago(GRACE + RESET_AFTER_MS) });
});

test('purgeCutoffs: a spent mfa token is kept at least the clock-skew margin, even with no grace', (t) => {
  const c = purgeCutoffs(now, 0);
  t.deepEqual(c.deadBefore, now);
  t.deepEqual(c.spentMfaTokensBefore, ago(MFA_SKEW_MARGIN_MS));
  t.deepEqual(c.lockoutQuietBefore, ago(RESET_AFTER_MS));
});

test('purgeCutoffs refuses a negative or fractional grace', (t) => {
  t.throws(() => purgeCutoffs(now, -1), { instanceOf: RangeError });
  t.throws(() => purgeCutoffs(now, 1.5), { instanceOf: RangeError });
});

test('isPurgeable: a row exactly at the end of its grace is kept, one millisecond later it goes', (t) => {
  const { deadBefore } = purgeCutoffs(now, GRACE);
  t.false(isPurgeable(ago(GRACE), deadBefore));
  t.true(isPurgeable(ago(GRACE + 1), deadBefore));
  t.false(isPurgeable(ago(DAY), deadBefore), 'inside the grace');
  t.false(isPurgeable(new Date(now.getTime() + DAY), deadBefore), 'alive');
});

test('sessionDeadAt: a session dies at its expiry or its revocation, whichever came first', (t) => {
  t.deepEqual(sessionDeadAt({ expiresAt: ago(DAY), revokedAt: null }), ago(DAY));
  t.deepEqual(sessionDeadAt({ expiresAt: new Date(now.getTime() + 20 * DAY), revokedAt: ago(8 * DAY) }), ago(8 * DAY));
  t.deepEqual(sessionDeadAt({ expiresAt: ago(9 * DAY), revokedAt: ago(DAY) }), ago(9 * DAY));
});

test('lockout buckets: a locked or recently failed bucket is kept; a long-quiet or empty one goes', (t) => {
  const c = purgeCutoffs(now, GRACE);
  const locked: LockoutBucket = { failures: 20, lastFailureAt: ago(10 * DAY), lockedUntil: new Date(now.getTime() + 3600_000) };
  t.false(isLockoutBucketPurgeable(locked, c));
  t.false(isLockoutBucketPurgeable({ failures: 1, lastFailureAt: ago(GRACE), lockedUntil: null }, c), 'quiet hour not over beyond the grace');
  t.true(isLockoutBucketPurgeable({ failures: 1, lastFailureAt: ago(GRACE + RESET_AFTER_MS + 1), lockedUntil: null }, c));
  // The end of a lock counts as activity: the quiet hour runs from there (lockout.ts).
  t.false(isLockoutBucketPurgeable({ failures: 5, lastFailureAt: ago(30 * DAY), lockedUntil: ago(GRACE) }, c));
  t.true(isLockoutBucketPurgeable(EMPTY_BUCKET, c));
  t.is(lockoutQuietSince(EMPTY_BUCKET), null);
});

test('lockout buckets: deleting a purgeable bucket changes nothing the lockout rules would decide', (t) => {
  const arbBucket = fc.array(fc.integer({ min: 0, max: 40 * DAY }), { minLength: 0, maxLength: 30 }).map((offsets) => {
    // A real history: failures at increasing instants before now.
    let b = EMPTY_BUCKET;
    for (const off of [...offsets].sort((a, z) => z - a)) b = recordFailure(b, ago(off));
    return b;
  });
  let purgeable = 0;
  fc.assert(fc.property(arbBucket, fc.integer({ min: 0, max: 14 * DAY }), (bucket, grace) => {
    if (!isLockoutBucketPurgeable(bucket, purgeCutoffs(now, grace))) return true;
    purgeable++;
    return isDeepStrictEqual(current(bucket, now), EMPTY_BUCKET) && isDeepStrictEqual(recordFailure(bucket, now), recordFailure(EMPTY_BUCKET, now));
  }), { numRuns: 500 });
  t.true(purgeable > 50, `only ${purgeable} purgeable buckets generated`);
});
