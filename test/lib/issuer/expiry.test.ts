import test from 'ava';
import { dueExpiryThreshold, expiryWindowEnd } from '../../../lib/issuer/expiry.js';

const DAY = 86_400_000;
const notAfter = new Date('2027-01-31T12:00:00Z');
const at = (daysBefore: number) => new Date(notAfter.getTime() - daysBefore * DAY);

test('dueExpiryThreshold is null beyond 30 days and after expiry', (t) => {
  t.is(dueExpiryThreshold(notAfter, at(31)), null);
  t.deepEqual(dueExpiryThreshold(notAfter, at(30.99)), { threshold: 30, daysUntilExpiry: 30 });
  t.is(dueExpiryThreshold(notAfter, at(0)), null);
  t.is(dueExpiryThreshold(notAfter, at(-1)), null);
});

test('dueExpiryThreshold gives each threshold at its day and the current bucket in between', (t) => {
  t.deepEqual(dueExpiryThreshold(notAfter, at(30)), { threshold: 30, daysUntilExpiry: 30 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(20)), { threshold: 30, daysUntilExpiry: 20 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(15)), { threshold: 15, daysUntilExpiry: 15 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(10)), { threshold: 15, daysUntilExpiry: 10 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(7)), { threshold: 7, daysUntilExpiry: 7 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(3)), { threshold: 3, daysUntilExpiry: 3 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(1)), { threshold: 1, daysUntilExpiry: 1 });
  t.deepEqual(dueExpiryThreshold(notAfter, at(0.5)), { threshold: 1, daysUntilExpiry: 0 });
});

test('expiryWindowEnd covers the largest threshold', (t) => {
  const now = at(40);
  t.true(expiryWindowEnd(now).getTime() >= now.getTime() + 30 * DAY);
});
