import test from 'ava';
import { applyPercent, federalRateFor, formatPercent, isImportedOrigin, parsePercent } from '../../../lib/approximate-tax/rate.js';
import { aRate } from '../../support/approximate-tax.js';

test('parsePercent reads point or comma decimals up to 4 places, exactly', (t) => {
  t.is(parsePercent('13.45'), 134500n);
  t.is(parsePercent('13,45'), 134500n);
  t.is(parsePercent('0'), 0n);
  t.is(parsePercent(' 7.6125 '), 76125n);
  t.is(parsePercent('100.00'), 1_000_000n);
});

test('parsePercent refuses what is not a plain percentage from 0 to 100', (t) => {
  for (const bad of ['', '-1', '13.45678', '100.01', '1e2', '13.4.5', 'abc', '1.000,00']) t.is(parsePercent(bad), undefined, bad);
});

test('formatPercent prints 2 decimals unless the rate has more', (t) => {
  t.is(formatPercent(134500n), '13.45');
  t.is(formatPercent(0n), '0.00');
  t.is(formatPercent(76125n), '7.6125');
  t.is(formatPercent(134000n), '13.40');
});

test('applyPercent rounds half away from zero to the cent', (t) => {
  t.is(applyPercent(10000n, 134500n), 1345n); // 100.00 × 13.45 %
  t.is(applyPercent(1n, 500000n), 1n); // 0.01 × 50 % = 0.005 → 0.01
  t.is(applyPercent(1n, 490000n), 0n); // 0.0049 → 0.00
  t.is(applyPercent(0n, 134500n), 0n);
});

test('federalRateFor takes the imported rate for the foreign origins 1, 2, 6 and 7 only', (t) => {
  const rate = aRate({ nacionalFederal: 1n, importadosFederal: 2n });
  t.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((o) => federalRateFor(rate, o)), [1n, 2n, 2n, 1n, 1n, 1n, 2n, 2n, 1n]);
  t.false(isImportedOrigin(8));
});
