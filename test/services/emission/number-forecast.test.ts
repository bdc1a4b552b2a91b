import test from 'ava';
import { NumberForecast } from '../../../services/emission/number-forecast.js';

/** services/emission/number-forecast.ts: what a node expects a series' next claim to answer. */
test('a series is forecast from its first claim on, group after group', (t) => {
  const f = new NumberForecast();
  t.is(f.take('s', 3), undefined, 'nothing known before a claim');
  f.claimed('s', 1, 3, undefined);
  t.is(f.take('s', 5), 4);
  t.is(f.take('s', 2), 9, 'a second group in flight is forecast after the first');
  f.claimed('s', 4, 5, 4);
  f.claimed('s', 9, 2, 9);
  t.is(f.take('s', 1), 11);
  t.is(f.take('other', 1), undefined, 'series are apart');
});

test('a miss restarts from the claim and stops forecasting until a probe every 16 groups', (t) => {
  const f = new NumberForecast();
  f.claimed('s', 1, 2, undefined);
  t.is(f.take('s', 2), 3);
  f.claimed('s', 7, 2, 3); // another node took 3..6
  for (let i = 0; i < 15; i++) {
    t.is(f.take('s', 1), undefined);
    f.claimed('s', 9 + i, 1, undefined);
  }
  t.is(f.take('s', 1), 24, 'the probe forecasts from the last claim');
  f.claimed('s', 24, 1, 24);
  t.is(f.take('s', 1), 25, 'a probe that held forecasts again');
});

test('a rolled back group forgets the series: nothing after its numbers holds', (t) => {
  const f = new NumberForecast();
  f.claimed('s', 1, 2, undefined);
  t.is(f.take('s', 2), 3);
  f.forget('s');
  t.is(f.take('s', 2), undefined);
});
