import test from 'ava';
import fc from 'fast-check';
import { toScaled } from '../../../../lib/money.js';
import { cents, percentCents, productCents, scaled } from '../../../../lib/nfe/rules/amounts.js';
import { dropNulls, withoutNulls } from '../../../../lib/nfe/without-nulls.js';

test('property: scaled recovers the exact integer of any value with at most frac decimals', (t) => {
  fc.assert(fc.property(fc.constantFrom(2, 3, 4, 10), fc.bigInt({ min: 0n, max: 10n ** 15n }), (frac, k) => {
    const value = Number(k) / 10 ** frac;
    return scaled(value, frac) === toScaled(value, frac);
  }), { numRuns: 5000 });
  t.pass();
});

test('cents, percentCents and productCents on the spec boundaries', (t) => {
  t.is(cents(9999999999999.99), 999999999999999n);
  t.is(cents(0.1 + 0.2), 30n);
  t.is(cents(undefined), 0n);
  t.is(percentCents(10000n, 18), 1800n);
  t.is(percentCents(3333n, 17.5), 583n); // 5.83275 → 5.83
  t.is(percentCents(1n, 50), 1n); // 0.005 rounds half up
  t.is(productCents(3, 3.3333, 4), 1000n);
  t.is(productCents(1, 10.005, 10), 1001n);
  t.is(productCents(1, 0.005, 10), 1n);
  t.is(productCents(2, 0.0000000001, 10), 0n);
  // Beyond the fast path: 11 integer digits on both sides go through lib/money.ts strings.
  t.is(productCents(10000000000, 10000000000, 10), 100000000000000000000n * 100n);
});

test('withoutNulls copies without null properties; dropNulls shares when there is none', (t) => {
  const input = { a: 1, b: null, c: { d: null, e: [1, null, { f: null }] } };
  t.deepEqual(withoutNulls(input), { a: 1, c: { e: [1, null, {}] } });
  const clean = { a: 1, c: { e: [1, 2] } };
  t.is(dropNulls(clean), clean);
  t.not(withoutNulls(clean), clean);
  t.deepEqual(dropNulls(input), { a: 1, c: { e: [1, null, {}] } });
});
