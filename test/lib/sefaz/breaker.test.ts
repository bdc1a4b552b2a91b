import test from 'ava';
import { KeyedBreaker } from '../../../lib/sefaz/breaker.js';

const opts = { threshold: 3, failureRatio: 0.5, minRequests: 6, windowMs: 60_000, cooldownMs: 10_000 };

test('KeyedBreaker opens after N consecutive failures, only for that key', (t) => {
  const b = new KeyedBreaker(opts);
  for (let i = 0; i < 3; i++) b.failure('SP|55|1', 1000 + i);
  t.is(b.state('SP|55|1', 2000), 'open');
  t.false(b.allow('SP|55|1', 2000));
  t.true(b.allow('MG|55|1', 2000));
});

test('KeyedBreaker opens on the failure ratio even without consecutive failures', (t) => {
  const b = new KeyedBreaker({ ...opts, threshold: 100 });
  for (let i = 0; i < 6; i++) (i % 2 ? b.failure : b.success).call(b, 'k', i);
  t.is(b.state('k', 10), 'open');
});

test('KeyedBreaker goes half-open after the cooldown, allows one trial, and closes on success', (t) => {
  const b = new KeyedBreaker(opts);
  for (let i = 0; i < 3; i++) b.failure('k', 0);
  t.false(b.allow('k', 9_999));
  t.true(b.allow('k', 10_000));
  t.is(b.state('k', 10_000), 'half-open');
  t.false(b.allow('k', 10_001), 'only one trial at a time');
  b.success('k', 10_002);
  t.is(b.state('k', 10_003), 'closed');
});

test('KeyedBreaker reopens when the half-open trial fails, and a neutral outcome frees the trial', (t) => {
  const b = new KeyedBreaker(opts);
  for (let i = 0; i < 3; i++) b.failure('k', 0);
  t.true(b.allow('k', 10_000));
  b.neutral('k');
  t.true(b.allow('k', 10_000));
  b.failure('k', 10_001);
  t.is(b.state('k', 10_002), 'open');
  t.false(b.allow('k', 19_000));
});
