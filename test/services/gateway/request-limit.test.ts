import test from 'ava';
import type { ServerResponse } from 'node:http';
import { countHit, enforceLimit } from '../../../services/gateway/request-limit.js';
import { MemoryRateLimiter, type RateLimiter } from '../../../services/gateway/rate-limiter.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0, 100);
const RESET = String(Math.floor(NOW / 1000) + 1);
/** A shared limiter whose Redis is down: every hit fails as ioredis fails a command. */
const redisDown: RateLimiter = { hit: () => Promise.reject(new Error('Reached the max retries per request limit (which is 2).')) };

function aResponse(): ServerResponse & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return { headers, setHeader: (name: string, value: string) => { headers[name] = value; } } as any;
}

test('enforceLimit counts a probe on the node-local window when the shared limiter cannot, with the same headers', async (t) => {
  const local = new MemoryRateLimiter();
  const res = aResponse();
  await enforceLimit(redisDown, res, 'ip:10.0.0.1', 2, NOW, local);
  t.deepEqual(res.headers, { 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': RESET });
  await enforceLimit(redisDown, aResponse(), 'ip:10.0.0.1', 2, NOW, local);
  const refused = aResponse();
  await t.throwsAsync(enforceLimit(redisDown, refused, 'ip:10.0.0.1', 2, NOW, local), { message: 'Limite de requisições por segundo excedido.' });
  t.is(refused.headers['X-RateLimit-Remaining'], '0');
});

test('enforceLimit without a local window fails the request when the shared limiter cannot count', async (t) => {
  await t.throwsAsync(enforceLimit(redisDown, aResponse(), 'p:partner', 5, NOW), { message: /max retries/ });
});

test('countHit with waitMs counts on the node-local window when the shared limiter has not answered in time', async (t) => {
  const silent: RateLimiter = { hit: () => new Promise(() => undefined) }; // Redis paused: the command never returns
  const local = new MemoryRateLimiter();
  const started = Date.now();
  t.deepEqual(await countHit(silent, 'ip:10.0.0.2', 2, NOW, { local, waitMs: 50 }), { limit: 2, remaining: 1, reset: Number(RESET), allowed: true });
  t.true(Date.now() - started < 1000);
  t.deepEqual(await countHit(redisDown, 'ip:10.0.0.2', 2, NOW, { local, waitMs: 50 }), { limit: 2, remaining: 0, reset: Number(RESET), allowed: true });
});

test('countHit takes the shared answer when it comes within waitMs', async (t) => {
  const shared = new MemoryRateLimiter();
  const local = new MemoryRateLimiter();
  await countHit(shared, 'ip:10.0.0.3', 2, NOW, { local, waitMs: 1000 });
  t.is((await shared.hit('ip:10.0.0.3', 2, NOW)).remaining, 0); // counted in the shared window
  t.is((await local.hit('ip:10.0.0.3', 2, NOW)).remaining, 1); // not in the local one
});
