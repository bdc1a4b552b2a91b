import test from 'ava';
import { money, percent } from '../../../../lib/nfse/xml/format.js';

/** The layout patterns, anchored as XSD patterns are. */
const TSDec15V2 = /^(0|0\.[0-9]{2}|[1-9][0-9]{0,14}(\.[0-9]{2})?)$/;
const TSDec1V2 = /^(0|[0-9](\.[0-9]{2})?)$/;
const TSDec2V2 = /^(0|0\.[0-9]{2}|[1-9][0-9]{0,1}(\.[0-9]{2})?)$/;
const TSDec3V2 = /^(0|0\.[0-9]{2}|[1-9][0-9]{0,2}(\.[0-9]{2})?)$/;

test('money writes TSDec15V2 with two decimals, no exponent, binary residue rounded away', (t) => {
  for (const [v, s] of [[0, '0.00'], [0.01, '0.01'], [1500, '1500.00'], [0.1 + 0.2, '0.30'], [999999999999999, '999999999999999.00'], [1e21 / 1e6, '1000000000000000.00']] as const) {
    t.is(money(v), s);
  }
  for (const v of [0, 0.01, 1.5, 12345.67, 999999999999999]) t.regex(money(v), TSDec15V2);
});

test('percent writes the TSDec1V2/2V2/3V2 percentages with two decimals', (t) => {
  t.is(percent(0), '0.00');
  t.is(percent(5), '5.00');
  t.is(percent(99.99), '99.99');
  t.is(percent(100), '100.00');
  for (const v of [0, 2, 9.99]) t.regex(percent(v), TSDec1V2);
  for (const v of [0, 6.12, 99.99]) t.regex(percent(v), TSDec2V2);
  for (const v of [0, 12.5, 100]) t.regex(percent(v), TSDec3V2);
  t.throws(() => percent(-1), { instanceOf: RangeError });
  t.throws(() => percent(Number.NaN), { instanceOf: RangeError });
});
