import test from 'ava';
import { DEFAULT_RETENTION, FINISHED_STATUSES, purgeRules } from '../../../lib/webhooks/retention.js';

const now = new Date('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;

test('purgeRules keeps delivered rows 30 days and dead or failed rows 90 days by default', (t) => {
  t.deepEqual(purgeRules(now, DEFAULT_RETENTION), [
    { statuses: ['delivered'], finishedBefore: new Date(now.getTime() - 30 * DAY) },
    { statuses: ['dead', 'failed'], finishedBefore: new Date(now.getTime() - 90 * DAY) },
  ]);
  t.is(purgeRules(now, DEFAULT_RETENTION)[0]!.finishedBefore.toISOString(), '2026-10-23T12:00:00.000Z');
});

test('purgeRules follows the configured days', (t) => {
  const [delivered, exhausted] = purgeRules(now, { deliveredDays: 1, exhaustedDays: 7 });
  t.is(now.getTime() - delivered!.finishedBefore.getTime(), DAY);
  t.is(now.getTime() - exhausted!.finishedBefore.getTime(), 7 * DAY);
});

test('purgeRules never names a status whose schedule is still running', (t) => {
  const named = purgeRules(now, DEFAULT_RETENTION).flatMap((r) => r.statuses);
  t.deepEqual([...named].sort(), [...FINISHED_STATUSES].sort());
  t.false(named.includes('pending' as never));
  t.false(named.includes('in_flight' as never));
});

for (const bad of [0, -1, 1.5, Number.NaN]) {
  test(`purgeRules refuses ${bad} days instead of purging everything`, (t) => {
    t.throws(() => purgeRules(now, { deliveredDays: bad, exhaustedDays: 90 }), { instanceOf: RangeError });
    t.throws(() => purgeRules(now, { deliveredDays: 30, exhaustedDays: bad }), { instanceOf: RangeError });
  });
}
