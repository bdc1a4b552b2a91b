import test from 'ava';
import { generateTotpSecret, verifyTotp, totpAt, otpauthUri, timeStep } from '../../../lib/auth/totp.js';

const now = new Date('2026-03-01T12:00:10Z');

test('verifyTotp accepts the current code and returns its time-step', (t) => {
  const s = generateTotpSecret();
  const r = verifyTotp(s, totpAt(s, now), now, null);
  t.deepEqual(r, { ok: true, step: timeStep(now) });
});

test('verifyTotp tolerates one step of drift either side, not two', (t) => {
  const s = generateTotpSecret();
  t.true(verifyTotp(s, totpAt(s, new Date(now.getTime() - 30_000)), now, null).ok);
  t.true(verifyTotp(s, totpAt(s, new Date(now.getTime() + 30_000)), now, null).ok);
  t.false(verifyTotp(s, totpAt(s, new Date(now.getTime() - 90_000)), now, null).ok);
});

test('verifyTotp refuses a code already used in its window', (t) => {
  const s = generateTotpSecret();
  const code = totpAt(s, now);
  const first = verifyTotp(s, code, now, null);
  t.true(first.ok);
  t.false(verifyTotp(s, code, new Date(now.getTime() + 5_000), (first as any).step).ok);
  const later = new Date(now.getTime() + 30_000);
  t.true(verifyTotp(s, totpAt(s, later), later, (first as any).step).ok);
});

test('verifyTotp refuses malformed codes', (t) => {
  const s = generateTotpSecret();
  for (const bad of ['', '12345', '1234567', 'abcdef']) t.false(verifyTotp(s, bad, now, null).ok);
});

test('otpauthUri names issuer and account', (t) => {
  const uri = otpauthUri('ana@x.com', 'Fiscal API', 'JBSWY3DPEHPK3PXP');
  t.regex(uri, /^otpauth:\/\/totp\/Fiscal%20API:ana%40x\.com\?secret=JBSWY3DPEHPK3PXP/);
});
