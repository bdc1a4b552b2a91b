import type { ServerResponse } from 'node:http';
import type { AppConfig } from '../../config.js';
import { DomainError } from '../../lib/errors/index.js';
import { getRedis } from '../shared/redis.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimitResult, type RateLimiter } from './rate-limiter.js';

/** The gateway's limiter: shared through Redis when configured (every node one window), else in memory. */
export function limiterFor(config: AppConfig): RateLimiter {
  return config.redisUrl ? new RedisRateLimiter(getRedis(config.redisUrl), `${config.redisPrefix}${config.namespace}:`) : new MemoryRateLimiter();
}

/**
 * Counts one request against `key`, answers X-RateLimit-* on every response (API.md, Limits), and
 * refuses with 429 RATE_LIMIT_EXCEEDED past `perSecond`. With `localWhenDown`, a shared limiter
 * that cannot count (Redis down) hands the count to that node-local window instead of failing the
 * request: a liveness probe must not turn 5xx because Redis did, or the orchestrator restarts
 * healthy nodes (services/gateway/monitoring-actions.ts). Other routes fail as before.
 */
export async function enforceLimit(limiter: RateLimiter, res: ServerResponse, key: string, perSecond: number, nowMs: number, localWhenDown?: RateLimiter): Promise<void> {
  const r = await limiter.hit(key, perSecond, nowMs).catch((err: unknown): Promise<RateLimitResult> => {
    if (!localWhenDown) throw err;
    return localWhenDown.hit(key, perSecond, nowMs);
  });
  res.setHeader('X-RateLimit-Limit', String(r.limit));
  res.setHeader('X-RateLimit-Remaining', String(r.remaining));
  res.setHeader('X-RateLimit-Reset', String(r.reset));
  if (!r.allowed) throw new DomainError('RATE_LIMIT_EXCEEDED');
}
