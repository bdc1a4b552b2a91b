import test from 'ava';
import { money, qty, rate, scaled4To2, unitValue, weight } from '../../../../lib/nfe/xml/format.js';

test('layout number formats are fixed-point, never exponent', (t) => {
  t.is(money(1n), '0.01');
  t.is(money(123456789012345n), '1234567890123.45');
  t.is(rate(18), '18.00');
  t.is(rate(0.9), '0.90');
  t.is(rate(4.6512), '4.6512');
  t.is(qty(1e-4), '0.0001');
  t.is(unitValue(1e-10), '0.0000000001');
  t.is(unitValue(12345678901.5), '12345678901.50');
  t.is(weight(0.5), '0.500');
  t.is(scaled4To2(1_000_050n), '100.01');
});
