import test from 'ava';
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisRateLimiter, type RateLimitResult } from '../../../services/gateway/rate-limiter.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';
import { commandsDuring } from '../../support/redis-monitor.js';
import { startStack } from '../../support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../../support/fake-auth.js';
import { createTestKit } from '../../support/testkit.service.js';

/**
 * The shared limiter against a redis-server of this file's own: SCRIPT FLUSH and a restart would
 * otherwise reach every other test's connections. Each test counts under its own prefix and a
 * fixed `nowMs`, so its hits share one window whatever the machine's speed (the key lives 2 s).
 * Serial: one test restarts the server under the others.
 */
let redis: PrivateRedis;
const clients: Redis[] = [];
test.before(async () => { redis = await startPrivateRedis(); });
test.after.always(async () => {
  for (const c of clients) c.disconnect();
  await redis?.stop();
});

/** A connection as a gateway node has one (services/shared/redis.ts options). */
function connection(): Redis {
  const c = new Redis(redis.url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  c.on('error', () => undefined); // refused while the private server restarts; the command retries
  clients.push(c);
  return c;
}

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0, 250);
const RESET = Math.floor(NOW / 1000) + 1;
const HIT_SHA = createHash('sha1').update(`local c = redis.call('INCRBY', KEYS[1], ARGV[1]) if c == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], 2) end return c`).digest('hex');
const window = (limit: number, remaining: number, allowed: boolean): RateLimitResult => ({ limit, remaining, reset: RESET, allowed });

async function hits(limiter: RedisRateLimiter, key: string, n: number, limit = 5): Promise<RateLimitResult[]> {
  const out: RateLimitResult[] = [];
  for (let i = 0; i < n; i++) out.push(await limiter.hit(key, limit, NOW));
  return out;
}

test.serial('RedisRateLimiter costs one EVALSHA per hit once a connection has loaded the script', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const limiter = new RedisRateLimiter(connection(), prefix);
  t.deepEqual(await hits(limiter, 'p:one-trip', 1), [window(5, 4, true)]); // the connection's first use sends the text
  const key = `${prefix}rl:p:one-trip:${RESET - 1}`;
  let results: RateLimitResult[] = [];
  const commands = await commandsDuring(redis.url, async () => { results = await hits(limiter, 'p:one-trip', 3); });
  t.deepEqual(commands, [1, 2, 3].map(() => ['evalsha', HIT_SHA, '1', key, '1']));
  t.deepEqual(results, [window(5, 3, true), window(5, 2, true), window(5, 1, true)]);
});

test.serial('RedisRateLimiter shares one window between two nodes: of seven concurrent hits with limit 5, exactly five pass', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const nodes = [new RedisRateLimiter(connection(), prefix), new RedisRateLimiter(connection(), prefix)];
  const results = await Promise.all([0, 1, 0, 1, 0, 1, 0].map((n) => nodes[n]!.hit('p:shared', 5, NOW)));
  t.deepEqual(results.map((r) => r.remaining).sort(), [0, 0, 0, 1, 2, 3, 4]);
  // Remaining 0 is the 5th hit (allowed) and every one after it (refused).
  t.deepEqual(results.filter((r) => r.remaining === 0).map((r) => r.allowed).sort(), [false, false, true]);
  t.true(results.filter((r) => r.remaining > 0).every((r) => r.allowed && r.limit === 5 && r.reset === RESET));
});

test.serial('RedisRateLimiter: hits that arrive while one is in flight share one INCRBY and take its counts in arrival order', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const limiter = new RedisRateLimiter(connection(), prefix);
  await limiter.hit('p:warm', 5, NOW); // the connection has loaded the script
  const key = `${prefix}rl:p:burst:${RESET - 1}`;
  let results: RateLimitResult[] = [];
  const commands = await commandsDuring(redis.url, async () => {
    results = await Promise.all(Array.from({ length: 10 }, () => limiter.hit('p:burst', 5, NOW)));
  });
  // The first sends at once; the nine that came while it was in flight wait and share the next.
  t.deepEqual(commands, [['evalsha', HIT_SHA, '1', key, '1'], ['evalsha', HIT_SHA, '1', key, '9']]);
  t.deepEqual(results, [
    window(5, 4, true), window(5, 3, true), window(5, 2, true), window(5, 1, true), window(5, 0, true),
    ...Array.from({ length: 5 }, () => window(5, 0, false)),
  ]);
  t.is(Number(await connection().get(key)), 10, 'Redis counted each hit once, none ahead of demand');
});

test.serial('RedisRateLimiter: a batch whose window the answer before it used up is refused without Redis', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const limiter = new RedisRateLimiter(connection(), prefix);
  await limiter.hit('p:warm', 5, NOW);
  t.deepEqual((await hits(limiter, 'p:full', 4)).map((r) => r.remaining), [4, 3, 2, 1]);
  let results: RateLimitResult[] = [];
  const commands = await commandsDuring(redis.url, async () => {
    results = await Promise.all(Array.from({ length: 4 }, () => limiter.hit('p:full', 5, NOW)));
  });
  // The 5th hit's answer (count 5) used the window up: the three waiting behind it never reach Redis.
  t.deepEqual(commands, [['evalsha', HIT_SHA, '1', `${prefix}rl:p:full:${RESET - 1}`, '1']]);
  t.deepEqual(results, [window(5, 0, true), window(5, 0, false), window(5, 0, false), window(5, 0, false)]);
});

test.serial('RedisRateLimiter: a failed command refuses its own batch only; hits waiting behind it are counted by the next', async (t) => {
  const client = connection();
  const limiter = new RedisRateLimiter(client, `rl-${randomUUID()}:`);
  // The limiter defined its command on this client (defineCommand): the first call fails as a lost connection would.
  const scripted = client as unknown as Record<'fiscalRateLimitHits', (key: string, hits: number) => Promise<number>>;
  const real = scripted.fiscalRateLimitHits.bind(client);
  let calls = 0;
  scripted.fiscalRateLimitHits = (key, n) => (++calls === 1 ? Promise.reject(new Error('connection lost')) : real(key, n));
  const settled = await Promise.allSettled(Array.from({ length: 3 }, () => limiter.hit('p:lost', 5, NOW)));
  t.deepEqual(settled.map((s) => s.status), ['rejected', 'fulfilled', 'fulfilled']);
  t.deepEqual(settled.slice(1).map((s) => (s as PromiseFulfilledResult<RateLimitResult>).value), [window(5, 4, true), window(5, 3, true)]);
});

test.serial('RedisRateLimiter keeps tenants apart: a partner over its limit leaves another partner its whole window', async (t) => {
  const limiter = new RedisRateLimiter(connection(), `rl-${randomUUID()}:`);
  await hits(limiter, 'p:flooder', 7);
  t.deepEqual(await hits(limiter, 'p:flooder', 1), [window(5, 0, false)]);
  t.deepEqual(await hits(limiter, 'p:neighbour', 2), [window(5, 4, true), window(5, 3, true)]);
});

test.serial('RedisRateLimiter refuses without Redis once this node saw the window used up; another node asks Redis and is refused too', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const [a, b] = [new RedisRateLimiter(connection(), prefix), new RedisRateLimiter(connection(), prefix)];
  await b.hit('p:other', 5, NOW); // b's connection has loaded the script: its next hit is one EVALSHA
  t.deepEqual((await hits(a, 'p:spent', 5)).map((r) => r.remaining), [4, 3, 2, 1, 0]);
  let refused: RateLimitResult[] = [];
  const onA = await commandsDuring(redis.url, async () => { refused = await hits(a, 'p:spent', 3); });
  t.deepEqual(onA, []);
  t.deepEqual(refused, [window(5, 0, false), window(5, 0, false), window(5, 0, false)]);
  const onB = await commandsDuring(redis.url, async () => { refused = await hits(b, 'p:spent', 1); });
  t.deepEqual(onB, [['evalsha', HIT_SHA, '1', `${prefix}rl:p:spent:${RESET - 1}`, '1']]);
  t.deepEqual(refused, [window(5, 0, false)]);
});

test.serial('RedisRateLimiter asks Redis again for a raised limit in the same window and for the next window', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const limiter = new RedisRateLimiter(connection(), prefix);
  await hits(limiter, 'p:upgraded', 6); // the 6th, refused here, was not counted in Redis
  let raised!: RateLimitResult;
  let next!: RateLimitResult;
  const commands = await commandsDuring(redis.url, async () => {
    raised = await limiter.hit('p:upgraded', 10, NOW); // under a plan of 10/s now: Redis counts 6
    next = await limiter.hit('p:upgraded', 5, NOW + 1000);
  });
  t.deepEqual(commands, [
    ['evalsha', HIT_SHA, '1', `${prefix}rl:p:upgraded:${RESET - 1}`, '1'],
    ['evalsha', HIT_SHA, '1', `${prefix}rl:p:upgraded:${RESET}`, '1'],
  ]);
  t.deepEqual(raised, window(10, 4, true));
  t.deepEqual(next, { limit: 5, remaining: 4, reset: RESET + 1, allowed: true });
});

test.serial('RedisRateLimiter keeps counting after SCRIPT FLUSH: the NOSCRIPT answer is followed by EVAL, then EVALSHA again', async (t) => {
  const prefix = `rl-${randomUUID()}:`;
  const limiter = new RedisRateLimiter(connection(), prefix);
  const key = `${prefix}rl:p:flushed:${RESET - 1}`;
  t.deepEqual(await hits(limiter, 'p:flushed', 3), [window(5, 4, true), window(5, 3, true), window(5, 2, true)]);
  await connection().script('FLUSH');
  let after: RateLimitResult[] = [];
  const commands = await commandsDuring(redis.url, async () => { after = await hits(limiter, 'p:flushed', 4); });
  t.deepEqual(after, [window(5, 1, true), window(5, 0, true), window(5, 0, false), window(5, 0, false)]);
  // The refused EVALSHA never ran the script (NOSCRIPT), so the count moved once per hit; the two
  // refusals after the 5th hit are this node's own (the next test).
  t.deepEqual(commands.map((c) => c[0]!.toLowerCase()), ['evalsha', 'eval', 'evalsha']);
  t.deepEqual(commands[1]!.slice(2), ['1', key, '1']);
});

test.serial('RedisRateLimiter works again after Redis restarts empty: the new connection loads the script, the window starts over', async (t) => {
  const limiter = new RedisRateLimiter(connection(), `rl-${randomUUID()}:`);
  t.deepEqual(await hits(limiter, 'p:restart', 2), [window(5, 4, true), window(5, 3, true)]);
  await redis.restartEmpty();
  // The count lived in the lost server: the window starts again, as on any empty Redis.
  t.deepEqual(await hits(limiter, 'p:restart', 2), [window(5, 4, true), window(5, 3, true)]);
});

test.serial('the gateway refuses the 6th request of a Dev partner in one window when Redis flushed its scripts after the 3rd', async (t) => {
  // A stopped clock: every request falls in one window, however slow the machine.
  const stack = await startStack({
    redis: true, env: { REDIS_URL: redis.url }, clock: new ManualClock(new Date(NOW)),
    nodes: [{ services: ['api-gateway'], extra: [FakeAuthService, createTestKit()] }],
  });
  t.teardown(() => stack.stop());
  const headers = { 'x-api-key': fakeCallerKey({ partnerId: `p-flush-${randomUUID()}`, plan: 'DEV' }) };
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await stack.request('GET', '/v1/kit/ok', { headers }));
  await connection().script('FLUSH');
  for (let i = 0; i < 3; i++) answers.push(await stack.request('GET', '/v1/kit/ok', { headers }));
  t.deepEqual(answers.map((r) => [r.status, r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining'), r.headers.get('x-ratelimit-reset')]), [
    [200, '5', '4', String(RESET)], [200, '5', '3', String(RESET)], [200, '5', '2', String(RESET)],
    [200, '5', '1', String(RESET)], [200, '5', '0', String(RESET)], [429, '5', '0', String(RESET)],
  ]);
  const refused = answers[5]!;
  t.is(refused.headers.get('retry-after'), '1');
  t.deepEqual(refused.body, {
    error: {
      type: 'https://errors.test/RATE_LIMIT_EXCEEDED', title: 'Too Many Requests', status: 429,
      detail: 'Limite de requisições por segundo excedido.', instance: '/v1/kit/ok',
      requestId: refused.headers.get('x-request-id'), timestamp: refused.body.error.timestamp,
    },
  });
});
