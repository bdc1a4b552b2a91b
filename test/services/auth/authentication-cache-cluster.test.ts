import test from 'ava';
import type { ServiceBroker } from 'moleculer';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeEmissionActivity } from '../../support/fake-emission.js';
import { createPartnerWithKey, loginAs, type LoggedIn } from '../../support/identity.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { AUTHENTICATION_DROP_ACTION } from '../../../services/auth/authentication-cache.js';
import { assertError, bearer, cachedAuthentication } from './helpers.js';

/**
 * The per-node cache of authentications (services/auth/authentication-cache.ts) on two nodes over
 * the Redis transporter, each with a gateway and auth (a gateway prefers its local auth): node 0
 * takes every write, node 1 only authenticates. For each write that changes what authentication
 * answers, node 1 holds the credential in cache before it and refuses it as soon as the write answered.
 */
const LEASE_MS = 1_500;
let stack: Stack;

test.before(async () => {
  stack = await startStack({
    redis: true,
    env: { CACHE_LEASE_MS: String(LEASE_MS) },
    nodes: [{ services: ['api-gateway', 'auth'], extra: [FakeEmissionActivity] }, { services: ['api-gateway', 'auth'] }],
  });
});
test.after.always(async () => {
  await stack?.stop();
  await closeAllRedis();
});

const reader = () => stack.nodes[1]!;
type Headers = { authorization: string } | { 'x-api-key': string };
const apiKey = (key: string) => ({ 'x-api-key': key });

/** What node 1 answers GET /v1/auth/me with these credentials (its gateway, its auth). */
const meOnReader = (headers: Headers) => stack.request('GET', '/v1/auth/me', { node: 1, headers });

/** Authenticates on the node until its cache holds the credential (a node keeps nothing for a lease after it joined). */
async function warm(broker: ServiceBroker, headers: Headers): Promise<void> {
  const deadline = Date.now() + 4 * LEASE_MS;
  const params = { authorization: 'authorization' in headers ? headers.authorization : undefined, apiKey: 'x-api-key' in headers ? headers['x-api-key'] : undefined, purpose: 'api' };
  for (;;) {
    await broker.call('v1.auth.authenticate', params, { nodeID: broker.nodeID });
    if (cachedAuthentication(broker, headers)) return;
    if (Date.now() > deadline) throw new Error(`node ${broker.nodeID} never cached the authentication`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function owner(): Promise<LoggedIn> {
  return loginAs(stack, { owner: true });
}

test.serial('API key regenerated on node 0: node 1 refuses the old key at once and accepts the new one', async (t) => {
  const o = await owner();
  const first = await stack.request('POST', '/v1/auth/api-keys/regenerate', { headers: o.headers });
  t.is(first.status, 201, first.text);
  const old = apiKey(first.body.data.apiKey);
  await warm(reader(), old);
  t.like((await meOnReader(old)).body.data, { scheme: 'key', partnerId: o.partnerId, keyKind: 'live' });

  const second = await stack.request('POST', '/v1/auth/api-keys/regenerate', { headers: o.headers });
  t.is(second.status, 201, second.text);
  assertError(t, await meOnReader(old), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  t.like((await meOnReader(apiKey(second.body.data.apiKey))).body.data, { scheme: 'key', partnerId: o.partnerId, keyKind: 'live' });
});

test.serial('logout on node 0: node 1 refuses the token at once; the user\'s other session lives on', async (t) => {
  const u = await loginAs(stack);
  const other = await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: u.password } });
  t.is(other.status, 201, other.text);
  await warm(reader(), u.headers);
  t.is((await stack.request('POST', '/v1/auth/logout', { headers: u.headers })).status, 200);
  assertError(t, await meOnReader(u.headers), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  t.like((await meOnReader(bearer(other.body.data.access_token))).body.data, { scheme: 'jwt', userId: u.userId });
});

test.serial('password changed on node 0: node 1 refuses every session of the user at once', async (t) => {
  const u = await loginAs(stack);
  const other = await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: u.password } });
  await warm(reader(), u.headers);
  await warm(reader(), bearer(other.body.data.access_token));
  const res = await stack.request('POST', '/v1/auth/change-password', { headers: u.headers, body: { currentPassword: u.password, newPassword: 'Nova-senha-456' } });
  t.is(res.status, 200, res.text);
  assertError(t, await meOnReader(u.headers), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  assertError(t, await meOnReader(bearer(other.body.data.access_token)), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
});

test.serial('partner deactivated on node 0: node 1 refuses its key and its members\' tokens at once', async (t) => {
  const sa = await loginAs(stack, { role: 'SUPERADMIN' });
  const p = await createPartnerWithKey(stack);
  const member = await loginAs(stack, { partnerId: p.partnerId });
  await warm(reader(), apiKey(p.apiKey));
  await warm(reader(), member.headers);
  const off = await stack.request('POST', `/v1/admin/partners/${p.partnerId}/deactivate`, { headers: sa.headers });
  t.is(off.status, 200, off.text);
  assertError(t, await meOnReader(apiKey(p.apiKey)), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  assertError(t, await meOnReader(member.headers), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
});

test.serial('subscription and plan changed on node 0: node 1 answers the new state at once', async (t) => {
  const p = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const key = apiKey(p.apiKey);
  await warm(reader(), key);
  await stack.nodes[0]!.call('v1.auth.setPlan', { partnerId: p.partnerId, plan: 'ENTERPRISE', enterpriseRateLimit: 500 }, { nodeID: stack.nodes[0]!.nodeID });
  const me = await meOnReader(key);
  t.like(me.body.data, { plan: 'ENTERPRISE', rateLimit: 500, subscriptionActive: true });
  t.is(me.headers.get('x-ratelimit-limit'), '500');

  await warm(reader(), key);
  await stack.nodes[0]!.call('v1.auth.setPlan', { partnerId: p.partnerId, subscription: 'INACTIVE' }, { nodeID: stack.nodes[0]!.nodeID });
  assertError(t, await meOnReader(key), 403, 'ASSINATURA_INATIVA', 'Chave de produção exige assinatura ativa.');
});

test.serial('a node that never acknowledges the drop: the logout answers after the lease, and that node refuses the token', async (t) => {
  const u = await loginAs(stack);
  // Node 1's drop action hangs (a node stalled or cut off): its requests are never answered in time.
  const endpoint = (reader().registry as any).getActionEndpointByNodeId(AUTHENTICATION_DROP_ACTION, reader().nodeID);
  const handler = endpoint.action.handler;
  endpoint.action.handler = () => new Promise((resolve) => setTimeout(() => resolve({ dropped: false }), LEASE_MS + 500));
  t.teardown(() => { endpoint.action.handler = handler; });

  await warm(reader(), u.headers);
  const started = performance.now();
  const out = await stack.request('POST', '/v1/auth/logout', { headers: u.headers });
  const took = performance.now() - started;
  t.is(out.status, 200, out.text);
  t.true(took >= LEASE_MS, `the logout waited for the silent node's lease (${Math.round(took)} ms)`);
  t.true(took < LEASE_MS + 1_500, `but not much longer (${Math.round(took)} ms)`);
  t.is(cachedAuthentication(reader(), u.headers), undefined, 'the silent node\'s entry has run out');
  assertError(t, await meOnReader(u.headers), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
});

test.serial('a node whose transporter is down authenticates from Postgres and keeps nothing: a revocation it missed holds there', async (t) => {
  const p = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const key = apiKey(p.apiKey);
  await warm(reader(), key);
  // What the Redis transporter shows once its connection closed: drops could not reach this node.
  const tx = (reader().transit as any).tx;
  tx.connected = false;
  t.teardown(() => { tx.connected = true; });
  await reader().call('v1.auth.authenticate', { apiKey: p.apiKey, purpose: 'api' }, { nodeID: reader().nodeID });
  t.is(cachedAuthentication(reader(), key), undefined, 'nothing kept while cut off');
  // A revocation node 1 cannot hear of (written behind every node's back).
  await stack.knex('auth.api_keys').where({ partner_id: p.partnerId }).update({ revoked_at: new Date() });
  assertError(t, await meOnReader(key), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
});
