import test from 'ava';
import { createPartnerWithKey } from '../../support/identity.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { authStack, bearer } from './helpers.js';
import { ManualClock } from '../../../services/shared/clock.js';

// The gateway's rate limiter keeps a process-wide Redis client; close it so the worker exits.
test.after.always(() => closeAllRedis());

/** Issue 23, defect 6: every response carries X-RateLimit-*, 401 included (API.md, Limits). */
test('a 401 (no credential, unknown key, bad token) carries the per-IP X-RateLimit-* headers and the same envelope', async (t) => {
  const stack = await authStack(t);
  const cases: [string, Record<string, string>][] = [
    ['Autenticação necessária: envie x-api-key ou Authorization: Bearer.', {}],
    ['Credenciais inválidas', { 'x-api-key': 'ek_live_naoexiste.segredo' }],
    ['Credenciais inválidas', bearer('nao.e.um.jwt')],
  ];
  for (const [detail, headers] of cases) {
    const second = Math.floor(Date.now() / 1000);
    const res = await stack.request('GET', '/v1/auth/me', { headers });
    t.is(res.status, 401, res.text);
    t.deepEqual(res.body, {
      error: {
        type: 'https://errors.test/UNAUTHORIZED', title: 'Unauthorized', status: 401, detail,
        instance: '/v1/auth/me', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
      },
    });
    t.is(res.headers.get('x-ratelimit-limit'), '1000'); // IP_RATE_LIMIT of the tests
    t.regex(res.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
    t.true(Number(res.headers.get('x-ratelimit-reset')) >= second + 1, 'Unix time of the next window');
  }
});

test('a flood of bad credentials from one address meets the per-IP window: 429 with Retry-After', async (t) => {
  // A stopped clock: every request falls in one window, however slow the machine.
  const stack = await authStack(t, { env: { IP_RATE_LIMIT: '3' }, clock: new ManualClock(new Date()) });
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': 'ek_live_x.y' } }));
  const statuses = answers.map((r) => r.status);
  t.deepEqual(statuses.slice(0, 3), [401, 401, 401]);
  t.true(statuses.slice(3).every((s) => s === 429), `statuses: ${statuses}`);
  t.is(answers[4]!.headers.get('retry-after'), '1');
  t.is(answers[4]!.headers.get('x-ratelimit-remaining'), '0');
  t.is(answers[4]!.body.error.type, 'https://errors.test/RATE_LIMIT_EXCEEDED');
});

test('when a revocation answers, the revoked key is refused on every node at once (no 2-second cache window)', async (t) => {
  const stack = await authStack(t, { nodes: 2, redis: true });
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const headers = { 'x-api-key': partner.apiKey };
  // Both auth nodes (the broker balances the gateways' calls) hold the key's authentication in cache.
  for (let i = 0; i < 6; i++) t.is((await stack.request('GET', '/v1/auth/me', { node: i % 2, headers })).status, 200);
  await stack.nodes[1]!.call('v1.auth.deactivatePartner', { partnerId: partner.partnerId });
  const after = await Promise.all([0, 1, 0, 1, 0, 1].map((node) => stack.request('GET', '/v1/auth/me', { node, headers })));
  t.deepEqual(after.map((r) => r.status), [401, 401, 401, 401, 401, 401]);
});
