import test from 'ava';
import { SampleRing, StageTimer, percentile } from '../../../services/emission/stage-timer.js';

test('nearest-rank percentiles of an ascending array', (t) => {
  const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
  t.is(percentile(sorted, 50), 50);
  t.is(percentile(sorted, 99), 99);
  t.is(percentile(sorted, 100), 100);
  t.is(percentile(sorted, 0), 1);
  t.is(percentile([7], 50), 7);
  t.is(percentile([7], 99), 7);
  t.is(percentile([1, 2], 50), 1);
  t.true(Number.isNaN(percentile([], 50)));
});

test('a ring summarises its samples numerically, whatever the order they came in', (t) => {
  const ring = new SampleRing(1000);
  for (const v of [10, 2, 100, 3, 1, 9, 8, 7, 6, 5, 4]) ring.record(v); // 100 > 9 numerically, not as text
  t.deepEqual(ring.summary(), { count: 11, p50: 6, p99: 100, mean: 14.091, max: 100 });
});

test('a full ring keeps only the most recent samples', (t) => {
  const ring = new SampleRing(4);
  for (const v of [1000, 1000, 1, 2, 3, 4]) ring.record(v);
  const s = ring.summary();
  t.is(s.count, 4);
  t.is(s.max, 4);
  t.is(s.p50, 2);
});

test('StageTimer reports only stages with samples, in pipeline order, and resets', async (t) => {
  const timer = new StageTimer(100);
  timer.record('sign', 0.25);
  timer.record('validate', 0.1);
  timer.record('validate', 0.3);
  await t.throwsAsync(timer.time('authority', () => { throw new Error('boom'); }));
  const stats = timer.stats();
  t.deepEqual(Object.keys(stats), ['validate', 'sign', 'authority']);
  t.is(stats.validate!.count, 2);
  t.is(stats.validate!.p50, 0.1);
  t.is(stats.validate!.p99, 0.3);
  t.is(stats.authority!.count, 1, 'a failed step is timed too');
  timer.reset();
  t.deepEqual(timer.stats(), {});
});
