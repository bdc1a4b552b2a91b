import type { ServerResponse } from 'node:http';
import type { AppConfig } from '../../config.js';
import { DomainError } from '../../lib/errors/index.js';
import { getRedis } from '../shared/redis.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimitResult, type RateLimiter } from './rate-limiter.js';

/** The gateway's limiter: shared through Redis when configured (every node one window), else in memory. */
export function limiterFor(config: AppConfig): RateLimiter {
  return config.redisUrl ? new RedisRateLimiter(getRedis(config.redisUrl), `${config.redisPrefix}${config.namespace}:`) : new MemoryRateLimiter();
}

/** Where a count goes when the shared limiter cannot take it (see countHit). */
export interface LocalFallback {
  /** The node-local window. */
  local: RateLimiter;
  /** A shared limiter silent this long counts as down; without it, only a failed hit does. */
  waitMs?: number;
}

/**
 * Counts one request against `key`. With a fallback, a shared limiter that cannot count (Redis
 * down) hands the count to the node-local window instead of failing: a liveness probe must not
 * turn 5xx because Redis did, or the orchestrator restarts healthy nodes
 * (services/gateway/monitoring-actions.ts). With `waitMs` too, so does one that has not answered in
 * time: ioredis holds a command through its reconnects for seconds, too long for an answer that
 * must go out at once (unparsed-request.ts); a late answer still counts in the shared window.
 */
export async function countHit(limiter: RateLimiter, key: string, perSecond: number, nowMs: number, fallback?: LocalFallback): Promise<RateLimitResult> {
  if (!fallback) return limiter.hit(key, perSecond, nowMs);
  const shared = fallback.waitMs === undefined ? limiter.hit(key, perSecond, nowMs) : within(limiter.hit(key, perSecond, nowMs), fallback.waitMs);
  return shared.catch(() => fallback.local.hit(key, perSecond, nowMs));
}

/** `p`, or a rejection once `ms` passed without its answer. */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** X-RateLimit-* of a counted window (API.md, Limits: on every response). */
export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  return { 'X-RateLimit-Limit': String(r.limit), 'X-RateLimit-Remaining': String(r.remaining), 'X-RateLimit-Reset': String(r.reset) };
}

/**
 * Counts one request against `key` (countHit), answers X-RateLimit-* on every response (API.md,
 * Limits), and refuses with 429 RATE_LIMIT_EXCEEDED past `perSecond`. With `localWhenDown`, a
 * shared limiter that cannot count counts on that node-local window instead; other routes fail as before.
 */
export async function enforceLimit(limiter: RateLimiter, res: ServerResponse, key: string, perSecond: number, nowMs: number, localWhenDown?: RateLimiter): Promise<void> {
  const r = await countHit(limiter, key, perSecond, nowMs, localWhenDown && { local: localWhenDown });
  for (const [name, value] of Object.entries(rateLimitHeaders(r))) res.setHeader(name, value);
  if (!r.allowed) throw new DomainError('RATE_LIMIT_EXCEEDED');
}
