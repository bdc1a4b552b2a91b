import test from 'ava';
import { breakerVerdict, KeyedBreaker } from '../../../lib/sefaz/breaker.js';

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

test('breakerVerdict counts only failures on the wire, 5xx and broken answers', (t) => {
  t.is(breakerVerdict({ kind: 'failure', origin: 'wire' }), 'failure');
  t.is(breakerVerdict({ kind: 'failure', origin: 'local' }), 'neutral', 'queue wait, circuit-open short-circuit');
  t.is(breakerVerdict({ kind: 'failure', origin: 'client-certificate' }), 'neutral', "one issuer's certificate refused");
  t.is(breakerVerdict({ kind: 'http-status', status: 503 }), 'failure');
  t.is(breakerVerdict({ kind: 'http-status', status: 403 }), 'neutral');
  t.is(breakerVerdict({ kind: 'malformed' }), 'failure');
  t.is(breakerVerdict({ kind: 'answer', cStat: 100 }), 'success');
  t.is(breakerVerdict({ kind: 'answer', cStat: 539 }), 'success', 'a rejection is an answer');
  t.is(breakerVerdict({ kind: 'answer', cStat: 107 }), 'success');
  t.is(breakerVerdict({ kind: 'answer', cStat: 108 }), 'neutral', 'reachable but stopped: the monitor decides');
  t.is(breakerVerdict({ kind: 'answer', cStat: 109 }), 'neutral');
});

test('KeyedBreaker: any number of local failures (a burst waiting in its queue) never opens the circuit', (t) => {
  const b = new KeyedBreaker(opts);
  for (let i = 0; i < 500; i++) t.is(b.record('SP|55|2', breakerVerdict({ kind: 'failure', origin: 'local' }), i), null);
  t.is(b.state('SP|55|2', 1_000), 'closed');
  t.true(b.allow('SP|55|2', 1_000));
});

test('KeyedBreaker.record reports the opening once and a recovery when a success follows failures', (t) => {
  const b = new KeyedBreaker(opts);
  t.is(b.record('k', 'failure', 0), null);
  t.is(b.record('k', 'success', 1), 'recovered', 'failures in a row ended');
  t.is(b.record('k', 'success', 2), null, 'nothing to recover from');
  t.deepEqual([0, 1, 2].map((i) => b.record('k', 'failure', 10 + i)), [null, null, 'opened']);
  t.is(b.record('k', 'failure', 13), null, 'a late failure while open does not open it again');
  t.true(b.allow('k', 10_012 + 1), 'half-open trial');
  t.is(b.record('k', 'failure', 10_014), null, 'the failed trial re-opens it silently');
  t.false(b.allow('k', 10_015));
  t.is(b.record('k', 'success', 10_016, { trial: false }), 'recovered', 'a probe answered: closed');
  t.is(b.state('k', 10_017), 'closed');
});

test('KeyedBreaker: a probe neither needs nor takes the half-open trial slot', (t) => {
  const b = new KeyedBreaker(opts);
  for (let i = 0; i < 3; i++) b.failure('k', 0);
  t.true(b.allow('k', 10_000), 'the trial goes out');
  // A probe's neutral outcome (108) while the trial is in flight must not free the trial's slot.
  t.is(b.record('k', 'neutral', 10_001, { trial: false }), null);
  t.false(b.allow('k', 10_002), 'still one trial at a time');
  t.is(b.record('k', 'neutral', 10_003), null, "the trial's own neutral outcome frees it");
  t.true(b.allow('k', 10_004));
});

test('KeyedBreaker.keys lists every authority a call asked about, open or not (the circuit-state metric reads it)', (t) => {
  const b = new KeyedBreaker(opts);
  t.deepEqual(b.keys(), []);
  b.allow('SP|55|2', 1000);
  for (let i = 0; i < 3; i++) b.failure('MG|65|2', 1000 + i);
  t.deepEqual(b.keys().sort(), ['MG|65|2', 'SP|55|2']);
  t.deepEqual(b.keys().sort().map((k) => b.state(k, 2000)), ['open', 'closed']);
});
