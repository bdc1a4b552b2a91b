import test from 'ava';
import { LogThrottle } from '../../../services/shared/log-throttle.js';

test('LogThrottle lets one line per key through per interval and counts the ones it held back', (t) => {
  let now = 0;
  const throttle = new LogThrottle(60_000, () => now);
  t.deepEqual(throttle.take('a'), { suppressed: 0 });
  now = 1_000;
  t.is(throttle.take('a'), null);
  t.is(throttle.take('a'), null);
  t.deepEqual(throttle.take('b'), { suppressed: 0 }, 'keys are independent');
  now = 60_000;
  t.deepEqual(throttle.take('a'), { suppressed: 2 });
  now = 60_001;
  t.is(throttle.take('a'), null);
});
