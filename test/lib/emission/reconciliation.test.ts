import test from 'ava';
import { checkDelayMs, nextCheckAt, RECONCILIATION_WINDOW_MS } from '../../../lib/emission/reconciliation.js';

const MIN = 60_000;

test('checkDelayMs grows from 2 minutes to a 6-hour ceiling', (t) => {
  t.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 50].map(checkDelayMs), [2 * MIN, 5 * MIN, 15 * MIN, 30 * MIN, 60 * MIN, 120 * MIN, 240 * MIN, 360 * MIN, 360 * MIN]);
  t.throws(() => checkDelayMs(-1), { instanceOf: RangeError });
});

test('checkDelayMs: the first check waits longer than one authority call may take (90 s)', (t) => {
  t.true(checkDelayMs(0) > 90_000);
});

test('nextCheckAt stays inside the 7-day window and stops after it', (t) => {
  const created = new Date('2026-11-01T00:00:00Z');
  t.deepEqual(nextCheckAt(created, 0, created), new Date(created.getTime() + 2 * MIN));
  const nearEnd = new Date(created.getTime() + RECONCILIATION_WINDOW_MS - MIN);
  t.deepEqual(nextCheckAt(created, 9, nearEnd), new Date(created.getTime() + RECONCILIATION_WINDOW_MS));
  t.is(nextCheckAt(created, 9, new Date(created.getTime() + RECONCILIATION_WINDOW_MS)), null);
});

test('nextCheckAt: the whole schedule takes a bounded number of consults over 7 days', (t) => {
  const created = new Date('2026-11-01T00:00:00Z');
  let now = created;
  let checks = 0;
  for (let attempt = 0; ; attempt++) {
    const next = nextCheckAt(created, attempt, now);
    if (!next) break;
    now = next;
    checks++;
  }
  t.true(checks > 20 && checks < 40, `checks: ${checks}`);
});
