import test from 'ava';
import { loginAs } from '../../support/identity.js';
import type { Stack } from '../../support/stack.js';
import { authStack, assertError, sleep } from './helpers.js';
import { closeAllRedis } from '../../../services/shared/redis.js';

// The gateway's rate limiter keeps a process-wide Redis client; close it so the worker exits.
test.after.always(() => closeAllRedis());

/**
 * An earlier node may learn of a later one only at its first heartbeat (the later node's INFO
 * broadcast can be missed), so wait until every node sees every other before testing fan-out.
 */
async function waitForMesh(stack: Stack): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = stack.nodes.every((a) => stack.nodes.every((b) => a === b || (a as any).registry.nodes.get(b.nodeID)?.available));
    if (ok) return;
    if (Date.now() > deadline) throw new Error('nodes did not discover each other');
    await sleep(100);
  }
}

test('logout on one gateway node is seen by the other (two nodes over the Redis transporter)', async (t) => {
  const stack = await authStack(t, { nodes: 2, redis: true });
  t.is(stack.urls.length, 2);
  await waitForMesh(stack);
  const u = await loginAs(stack);
  const other = await stack.request('POST', '/v1/auth/login', { node: 1, body: { email: u.email, password: u.password } });
  t.is(other.status, 201, other.text);
  for (const node of [0, 1]) t.is((await stack.request('GET', '/v1/auth/me', { node, headers: u.headers })).status, 200);

  const out = await stack.request('POST', '/v1/auth/logout', { node: 0, headers: u.headers });
  t.is(out.status, 200, out.text);
  // At once: the logout answered after every auth node dropped its cached authentications.
  for (const node of [0, 1]) {
    const r = await stack.request('GET', '/v1/auth/me', { node, headers: u.headers });
    assertError(t, r, 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  }
  // The other session lives on.
  t.is((await stack.request('GET', '/v1/auth/me', { node: 0, headers: { authorization: `Bearer ${other.body.data.access_token}` } })).status, 200);
});

test('lockout buckets are shared: failures on two nodes add up', async (t) => {
  const stack = await authStack(t, { nodes: 2, redis: true });
  await waitForMesh(stack);
  const u = await loginAs(stack);
  for (let i = 0; i < 5; i++) {
    const r = await stack.request('POST', '/v1/auth/login', { node: i % 2, body: { email: u.email, password: 'wrong-password' } });
    t.is(r.status, 401);
  }
  for (const node of [0, 1]) assertError(t, await stack.request('POST', '/v1/auth/login', { node, body: { email: u.email, password: u.password } }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
});
