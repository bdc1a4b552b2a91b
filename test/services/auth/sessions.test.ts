import test from 'ava';
import { ManualClock } from '../../../services/shared/clock.js';
import { loginAs, createPartnerWithKey, TEST_PASSWORD } from '../../support/identity.js';
import { authStack, assertInvalidCredentials, assertError, bearer, cachedAuthentication } from './helpers.js';

test('login answers 201 with access_token, refresh_token and user; the token opens /v1/auth/me', async (t) => {
  const stack = await authStack(t);
  const { partnerId } = await createPartnerWithKey(stack);
  await stack.nodes[0]!.call('v1.auth.createUser', { partnerId, email: 'Ana@Example.com', password: TEST_PASSWORD, name: 'Ana', role: 'ADMIN' });
  const res = await stack.request('POST', '/v1/auth/login', { body: { email: 'ana@example.com', password: TEST_PASSWORD } });
  t.is(res.status, 201, res.text);
  const data = res.body.data;
  t.deepEqual(Object.keys(data).sort(), ['access_token', 'expires_in', 'refresh_token', 'token_type', 'user']);
  t.is(data.expires_in, 43200);
  t.like(data.user, { email: 'ana@example.com', name: 'Ana', partnerId, role: 'ADMIN' });
  t.regex(data.access_token, /^eyJhbGciOiJIUzI1NiIs/);
  const me = await stack.request('GET', '/v1/auth/me', { headers: bearer(data.access_token) });
  t.is(me.status, 200, me.text);
  t.like(me.body.data, { scheme: 'jwt', partnerId, userId: data.user.id, role: 'ADMIN', isOwner: false, keyKind: null, plan: 'DEV', rateLimit: 5, subscriptionActive: true });
});

test('the access token expires after 12 hours (injected clock)', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const u = await loginAs(stack, { now: () => clock.now() });
  clock.advance(12 * 3600_000 - 1000);
  t.is((await stack.request('GET', '/v1/auth/me', { headers: u.headers })).status, 200);
  t.is(cachedAuthentication(stack.nodes[0]!, u.headers)?.caller.userId, u.userId, 'the authentication is cached, its lease has seconds to run');
  clock.advance(1000);
  // At once: a cached authentication ends with its token.
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: u.headers }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  // The refresh token (30 days) still gives a new access token.
  const r = await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: u.refreshToken } });
  t.is(r.status, 200, r.text);
  t.is((await stack.request('GET', '/v1/auth/me', { headers: bearer(r.body.data.access_token) })).status, 200);
});

test('the refresh token expires after 30 days', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const u = await loginAs(stack);
  clock.advance(30 * 24 * 3600_000);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: u.refreshToken } }), '/v1/auth/refresh');
});

test('refresh rotates: the used token dies; its reuse answers 401 and revokes the whole family', async (t) => {
  const stack = await authStack(t);
  const u = await loginAs(stack);
  const first = await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: u.refreshToken } });
  t.is(first.status, 200, first.text);
  const { access_token: access2, refresh_token: refresh2 } = first.body.data;
  t.not(refresh2, u.refreshToken);
  t.is((await stack.request('GET', '/v1/auth/me', { headers: bearer(access2) })).status, 200);

  const reuse = await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: u.refreshToken } });
  assertInvalidCredentials(t, reuse, '/v1/auth/refresh');
  // The family is gone: the newest refresh token and the access tokens of the session too.
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: refresh2 } }), '/v1/auth/refresh');
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: bearer(access2) }), 401, 'UNAUTHORIZED');
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: 'made-up' } }), '/v1/auth/refresh');
});

test('logout ends this session only; all=true ends every session of the user', async (t) => {
  const stack = await authStack(t);
  const u = await loginAs(stack);
  const second = await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: u.password } });
  const third = await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: u.password } });
  const out = await stack.request('POST', '/v1/auth/logout', { headers: u.headers });
  t.is(out.status, 200, out.text);
  t.deepEqual(out.body.data, { endedSessions: 1 });
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: u.headers }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  t.is((await stack.request('GET', '/v1/auth/me', { headers: bearer(second.body.data.access_token) })).status, 200);
  const all = await stack.request('POST', '/v1/auth/logout?all=true', { headers: bearer(second.body.data.access_token) });
  t.deepEqual(all.body.data, { endedSessions: 2 });
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: bearer(third.body.data.access_token) }), 401, 'UNAUTHORIZED');
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: third.body.data.refresh_token } }), '/v1/auth/refresh');
});

test('logout requires a JWT: an API key gets 403', async (t) => {
  const stack = await authStack(t);
  const p = await createPartnerWithKey(stack);
  assertError(t, await stack.request('POST', '/v1/auth/logout', { headers: { 'x-api-key': p.apiKey } }), 403, 'FORBIDDEN');
});

test('changing the password ends every session; the old password stops working', async (t) => {
  const stack = await authStack(t);
  const u = await loginAs(stack);
  const other = await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: u.password } });
  const wrong = await stack.request('POST', '/v1/auth/change-password', { headers: u.headers, body: { currentPassword: 'nope-nope', newPassword: 'Nova-senha-456' } });
  assertError(t, wrong, 400, 'VALIDATION_ERROR', 'Senha atual incorreta.');
  const short = await stack.request('POST', '/v1/auth/change-password', { headers: u.headers, body: { currentPassword: u.password, newPassword: 'curta' } });
  assertError(t, short, 400, 'VALIDATION_ERROR');
  t.is(short.body.error.errors[0].field, 'newPassword');
  const ok = await stack.request('POST', '/v1/auth/change-password', { headers: u.headers, body: { currentPassword: u.password, newPassword: 'Nova-senha-456' } });
  t.is(ok.status, 200, ok.text);
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: u.headers }), 401, 'UNAUTHORIZED');
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: bearer(other.body.data.access_token) }), 401, 'UNAUTHORIZED');
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: u.password } }));
  t.is((await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: 'Nova-senha-456' } })).status, 201);
});

test('login body is strict and validated (400 before any check)', async (t) => {
  const stack = await authStack(t);
  const res = await stack.request('POST', '/v1/auth/login', { body: { email: 'a@b.com', password: 'x', extra: 1 } });
  assertError(t, res, 400, 'VALIDATION_ERROR');
  t.is(res.body.error.details.camposDesconhecidos[0].campo, 'extra');
  assertError(t, await stack.request('POST', '/v1/auth/login', { body: { email: 'not-an-email', password: 'x' } }), 400, 'VALIDATION_ERROR');
});
