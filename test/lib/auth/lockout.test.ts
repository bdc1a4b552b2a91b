import test from 'ava';
import { EMPTY_BUCKET, recordFailure, isLocked, current, type LockoutBucket } from '../../../lib/auth/lockout.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const MIN = 60_000;

function fail(b: LockoutBucket, times: number, now: Date): LockoutBucket {
  for (let i = 0; i < times; i++) b = recordFailure(b, now);
  return b;
}

test('lockout: 4 failures do not lock, the 5th locks for 1 minute', (t) => {
  const four = fail(EMPTY_BUCKET, 4, t0);
  t.false(isLocked(four, t0));
  const five = recordFailure(four, t0);
  t.true(isLocked(five, at(59_999)));
  t.false(isLocked(five, at(MIN)));
});

test('lockout: 10, 15 and 20 failures lock for 15 min, 1 h and 4 h', (t) => {
  let b = fail(EMPTY_BUCKET, 5, t0);
  let now = at(MIN);
  b = fail(b, 5, now);
  t.is(b.lockedUntil!.getTime() - now.getTime(), 15 * MIN);
  now = new Date(b.lockedUntil!.getTime());
  b = fail(b, 5, now);
  t.is(b.lockedUntil!.getTime() - now.getTime(), 60 * MIN);
  now = new Date(b.lockedUntil!.getTime());
  b = fail(b, 5, now);
  t.is(b.failures, 20);
  t.is(b.lockedUntil!.getTime() - now.getTime(), 240 * MIN);
});

test('lockout: failures while locked are not counted', (t) => {
  const b = fail(EMPTY_BUCKET, 5, t0);
  const again = fail(b, 10, at(1000));
  t.is(again.failures, 5);
  t.deepEqual(again.lockedUntil, b.lockedUntil);
});

test('lockout: a bucket without failure for 1 hour resets, counted from the end of a lock', (t) => {
  const b = fail(EMPTY_BUCKET, 4, t0);
  t.is(current(b, at(59 * MIN)).failures, 4);
  t.is(current(b, at(60 * MIN)).failures, 0);
  let long = fail(EMPTY_BUCKET, 5, t0);
  for (const step of [1, 16, 76]) long = fail(long, 5, at(step * MIN));
  t.true(isLocked(current(long, at(76 * MIN + 2 * 3600_000)), at(76 * MIN + 2 * 3600_000)), 'the 4 h lock holds beyond 1 h');
  t.is(current(long, at(76 * MIN + 4 * 3600_000)).failures, 20, 'still counted right after the lock');
  t.is(current(long, at(76 * MIN + 5 * 3600_000)).failures, 0, 'reset 1 h after the lock ended');
});
