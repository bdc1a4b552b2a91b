import test from 'ava';
import { Backoff, isMissingGroup } from '../../../services/shared/redis-streams.js';

test('isMissingGroup recognises the NOGROUP and UNBLOCKED answers of a vanished stream or group, nothing else', (t) => {
  t.true(isMissingGroup(new Error("NOGROUP No such key 'x.emission.batch' or consumer group 'emission' in XREADGROUP with GROUP option")));
  t.true(isMissingGroup(new Error('UNBLOCKED the stream key no longer exists')));
  t.false(isMissingGroup(new Error('Connection is closed.')));
  t.false(isMissingGroup(new Error('BUSYGROUP Consumer Group name already exists')));
  t.false(isMissingGroup(undefined));
});

test('Backoff waits nothing after a quiet spell, then 100 ms doubling up to 5 s while failures keep coming', (t) => {
  let now = 0;
  const backoff = new Backoff(() => now);
  t.is(backoff.next(), 0);
  const delays = [];
  for (let i = 0; i < 8; i++) { now += 10; delays.push(backoff.next()); }
  t.deepEqual(delays, [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
  now += 30_001;
  t.is(backoff.next(), 0, 'quiet for 30 s: from zero again');
});
