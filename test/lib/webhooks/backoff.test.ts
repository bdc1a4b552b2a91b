import test from 'ava';
import { afterAttempt, isSuccessStatus, MAX_ATTEMPTS } from '../../../lib/webhooks/backoff.js';

const t0 = new Date('2026-11-22T12:00:00.000Z');
const min = 60_000;

test('afterAttempt waits 5 min, 30 min, 2 h and 24 h after failed attempts 1 to 4', (t) => {
  const waits = [1, 2, 3, 4].map((n) => {
    const o = afterAttempt(n, false, t0);
    return o.status === 'pending' ? o.nextAttemptAt.getTime() - t0.getTime() : -1;
  });
  t.deepEqual(waits, [5 * min, 30 * min, 120 * min, 24 * 60 * min]);
});

test('afterAttempt sends the delivery to the DLQ after the 5th failure', (t) => {
  t.is(MAX_ATTEMPTS, 5);
  t.deepEqual(afterAttempt(5, false, t0), { status: 'dead' });
});

test('afterAttempt marks a success delivered at any attempt', (t) => {
  t.deepEqual(afterAttempt(3, true, t0), { status: 'delivered' });
});

test('afterAttempt ends a single-attempt test delivery as failed, not dead', (t) => {
  t.deepEqual(afterAttempt(1, false, t0, 1), { status: 'failed' });
});

test('isSuccessStatus is any 2xx', (t) => {
  t.true(isSuccessStatus(200));
  t.true(isSuccessStatus(204));
  t.false(isSuccessStatus(301));
  t.false(isSuccessStatus(500));
  t.false(isSuccessStatus(null));
});
