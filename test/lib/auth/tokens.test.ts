import test from 'ava';
import jwt from 'jsonwebtoken';
import { signAccessToken, signMfaToken, verifyToken, bearerToken, ACCESS_TTL_S, MFA_TTL_S } from '../../../lib/auth/tokens.js';

const secret = 's3cr3t-for-tests-only-0123456789';
const now = new Date('2026-03-01T12:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);

test('access tokens carry sub and sid and expire after 12 hours', (t) => {
  const tok = signAccessToken('u1', 's1', secret, now);
  t.deepEqual(verifyToken(tok, 'access', secret, later(ACCESS_TTL_S - 1)), { typ: 'access', sub: 'u1', sid: 's1', expiresAt: later(ACCESS_TTL_S) });
  t.is(verifyToken(tok, 'access', secret, later(ACCESS_TTL_S)), null);
  // Ours always carry exp; one without would be valid forever (and cached without an end).
  const endless = jwt.sign({ typ: 'access', sub: 'u1', sid: 's1', iat: Math.floor(now.getTime() / 1000) }, secret, { algorithm: 'HS256', issuer: 'fiscal-api' });
  t.is(verifyToken(endless, 'access', secret, now), null);
});

test('mfa tokens expire after 5 minutes and are not access tokens', (t) => {
  const jti = '6f1c2b1e-8a51-4c5e-9a43-2f0d6f1e9b10';
  const tok = signMfaToken('u1', secret, now, jti);
  t.deepEqual(verifyToken(tok, 'mfa', secret, later(MFA_TTL_S - 1)), { typ: 'mfa', sub: 'u1', jti, expiresAt: later(MFA_TTL_S) });
  t.is(verifyToken(tok, 'mfa', secret, later(MFA_TTL_S)), null);
  t.is(verifyToken(tok, 'access', secret, now), null);
  t.is(verifyToken(signAccessToken('u1', 's1', secret, now), 'mfa', secret, now), null);
});

test('every mfa token gets its own jti, and one without a usable jti is refused', (t) => {
  const a = verifyToken(signMfaToken('u1', secret, now), 'mfa', secret, now);
  const b = verifyToken(signMfaToken('u1', secret, now), 'mfa', secret, now);
  t.regex(a!.jti, /^[0-9a-f-]{36}$/);
  t.not(a!.jti, b!.jti);
  const iat = Math.floor(now.getTime() / 1000);
  const legacy = jwt.sign({ typ: 'mfa', sub: 'u1', iat }, secret, { algorithm: 'HS256', expiresIn: MFA_TTL_S, issuer: 'fiscal-api' });
  t.is(verifyToken(legacy, 'mfa', secret, now), null);
  const oddJti = jwt.sign({ typ: 'mfa', sub: 'u1', jti: 'x'.repeat(500), iat }, secret, { algorithm: 'HS256', expiresIn: MFA_TTL_S, issuer: 'fiscal-api' });
  t.is(verifyToken(oddJti, 'mfa', secret, now), null);
});

test('verifyToken refuses another secret and garbage', (t) => {
  t.is(verifyToken(signAccessToken('u1', 's1', secret, now), 'access', 'other-secret', now), null);
  t.is(verifyToken('not.a.jwt', 'access', secret, now), null);
});

test('bearerToken extracts the token of a Bearer header only', (t) => {
  t.is(bearerToken('Bearer abc.def'), 'abc.def');
  t.is(bearerToken('bearer abc'), 'abc');
  t.is(bearerToken('Basic abc'), null);
  t.is(bearerToken(undefined), null);
});
