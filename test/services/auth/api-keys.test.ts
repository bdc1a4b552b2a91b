import test from 'ava';
import { createPartnerWithKey, loginAs } from '../../support/identity.js';
import { authStack, assertError, cachedAuthentication } from './helpers.js';

const key = (apiKey: string) => ({ 'x-api-key': apiKey });

test('keys: ek_live_/ek_test_ prefixes, shown once, stored hashed; key and JWT resolve the same partner', async (t) => {
  const stack = await authStack(t);
  const live = await createPartnerWithKey(stack, { plan: 'GROWTH' });
  t.regex(live.apiKey, /^ek_live_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  const viaKey = await stack.request('GET', '/v1/auth/me', { headers: key(live.apiKey) });
  t.is(viaKey.status, 200, viaKey.text);
  t.like(viaKey.body.data, { scheme: 'key', partnerId: live.partnerId, keyKind: 'live', plan: 'GROWTH', rateLimit: 60, subscriptionActive: true, userId: null });
  t.is(viaKey.headers.get('x-ratelimit-limit'), '60');
  t.is(viaKey.body.data.apiKeys[0].masked.endsWith('_••••'), true);
  t.false(viaKey.text.includes(live.apiKey.slice(-43)), 'the secret is never shown again');
  const admin = await loginAs(stack, { partnerId: live.partnerId });
  const viaJwt = await stack.request('GET', '/v1/auth/me', { headers: admin.headers });
  t.like(viaJwt.body.data, { scheme: 'jwt', partnerId: live.partnerId, plan: 'GROWTH', rateLimit: 60, keyKind: null });
  const rows = await stack.knex('auth.api_keys').where({ partner_id: live.partnerId });
  t.false(JSON.stringify(rows).includes(live.apiKey.slice(-43)));
});

test('a live key of a partner without ACTIVE subscription answers 403; its test key works', async (t) => {
  const stack = await authStack(t);
  const p = await createPartnerWithKey(stack, { subscription: 'INACTIVE' });
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: key(p.apiKey) }), 403, 'ASSINATURA_INATIVA', 'Chave de produção exige assinatura ativa.');
  const testKey: any = await stack.nodes[0]!.call('v1.auth.issueKey', { partnerId: p.partnerId, kind: 'test' });
  t.regex(testKey.apiKey, /^ek_test_/);
  const me = await stack.request('GET', '/v1/auth/me', { headers: key(testKey.apiKey) });
  t.like(me.body.data, { keyKind: 'test', subscriptionActive: false });
});

test('regenerate: test key for any partner; live key 403 without ACTIVE subscription; the old key dies', async (t) => {
  const stack = await authStack(t);
  const inactive = await createPartnerWithKey(stack, { subscription: 'INACTIVE', keyKind: 'test' });
  const user = await loginAs(stack, { partnerId: inactive.partnerId });
  const regenTest = await stack.request('POST', '/v1/auth/api-keys/test/regenerate', { headers: user.headers });
  t.is(regenTest.status, 201, regenTest.text);
  t.regex(regenTest.body.data.apiKey, /^ek_test_/);
  t.is(regenTest.body.data.kind, 'test');
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: key(inactive.apiKey) }), 401, 'UNAUTHORIZED');
  t.is((await stack.request('GET', '/v1/auth/me', { headers: key(regenTest.body.data.apiKey) })).status, 200);
  assertError(t, await stack.request('POST', '/v1/auth/api-keys/regenerate', { headers: user.headers }), 403, 'ASSINATURA_INATIVA');

  const active = await createPartnerWithKey(stack);
  const activeUser = await loginAs(stack, { partnerId: active.partnerId });
  const regenLive = await stack.request('POST', '/v1/auth/api-keys/regenerate', { headers: activeUser.headers });
  t.is(regenLive.status, 201, regenLive.text);
  t.regex(regenLive.body.data.apiKey, /^ek_live_/);
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: key(active.apiKey) }), 401, 'UNAUTHORIZED');
  t.is((await stack.request('GET', '/v1/auth/me', { headers: key(regenLive.body.data.apiKey) })).status, 200);

  // Regeneration is a JWT route, and not for accountants.
  assertError(t, await stack.request('POST', '/v1/auth/api-keys/test/regenerate', { headers: key(regenLive.body.data.apiKey) }), 403, 'FORBIDDEN');
  const contador = await loginAs(stack, { role: 'CONTADOR', partnerId: active.partnerId });
  assertError(t, await stack.request('POST', '/v1/auth/api-keys/test/regenerate', { headers: contador.headers }), 403, 'PERMISSAO_INSUFICIENTE');
});

test('malformed, unknown and forged keys answer 401 Credenciais inválidas', async (t) => {
  const stack = await authStack(t);
  const p = await createPartnerWithKey(stack);
  const forged = p.apiKey.slice(0, -4) + (p.apiKey.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  for (const k of ['ek_live_nope', 'sk_live_123', forged, p.apiKey.replace('ek_live_', 'ek_test_')]) {
    assertError(t, await stack.request('GET', '/v1/auth/me', { headers: key(k) }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  }
  assertError(t, await stack.request('GET', '/v1/auth/me'), 401, 'UNAUTHORIZED');
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: { authorization: 'Basic abc' } }), 401, 'UNAUTHORIZED');
  t.is((await stack.request('GET', '/v1/auth/me', { headers: { authorization: 'Basic abc', ...key(p.apiKey) } })).status, 200, 'a non-Bearer Authorization does not hide the key');
});

test('deactivating a partner revokes its keys and sessions (401); refused with 409 once it has emitted', async (t) => {
  const stack = await authStack(t);
  const sa = await loginAs(stack, { role: 'SUPERADMIN' });
  const p = await createPartnerWithKey(stack);
  const member = await loginAs(stack, { partnerId: p.partnerId });
  t.is((await stack.request('GET', '/v1/auth/me', { headers: key(p.apiKey) })).status, 200);
  t.like(cachedAuthentication(stack.nodes[0]!, key(p.apiKey))?.caller, { partnerId: p.partnerId, keyKind: 'live' });
  assertError(t, await stack.request('POST', `/v1/admin/partners/${p.partnerId}/deactivate`, { headers: member.headers }), 403, 'PERMISSAO_INSUFICIENTE');
  const off = await stack.request('POST', `/v1/admin/partners/${p.partnerId}/deactivate`, { headers: sa.headers });
  t.is(off.status, 200, off.text);
  t.like(off.body.data, { partnerId: p.partnerId, active: false, revokedKeys: 1, endedSessions: 1 });
  // At once: the deactivation answered after every auth node dropped its cached authentications.
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: key(p.apiKey) }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: member.headers }), 401, 'UNAUTHORIZED');
  const relogin = await stack.request('POST', '/v1/auth/login', { body: { email: member.email, password: member.password } });
  assertError(t, relogin, 401, 'UNAUTHORIZED', 'Credenciais inválidas');

  const emitted = await createPartnerWithKey(stack);
  t.deepEqual(await stack.nodes[0]!.call('v1.auth.markPartnerEmitted', { partnerId: emitted.partnerId }), { partnerId: emitted.partnerId, hasEmitted: true });
  const refused = await stack.request('POST', `/v1/admin/partners/${emitted.partnerId}/deactivate`, { headers: sa.headers });
  assertError(t, refused, 409, 'PARCEIRO_COM_DOCUMENTOS', 'Parceiro que já emitiu documento fiscal não pode ser desativado.');
  t.is((await stack.request('GET', '/v1/auth/me', { headers: key(emitted.apiKey) })).status, 200);
  assertError(t, await stack.request('POST', '/v1/admin/partners/00000000-0000-4000-8000-000000000000/deactivate', { headers: sa.headers }), 404, 'NOT_FOUND');
});

test('setPlan changes the rate limit the gateway applies (Enterprise uses its contract)', async (t) => {
  const stack = await authStack(t);
  const p = await createPartnerWithKey(stack);
  await stack.nodes[0]!.call('v1.auth.setPlan', { partnerId: p.partnerId, plan: 'ENTERPRISE', enterpriseRateLimit: 500 });
  const me = await stack.request('GET', '/v1/auth/me', { headers: key(p.apiKey) });
  t.like(me.body.data, { plan: 'ENTERPRISE', rateLimit: 500 });
  t.is(me.headers.get('x-ratelimit-limit'), '500');
});
