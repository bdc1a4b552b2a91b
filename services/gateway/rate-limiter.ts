import type { Redis } from 'ioredis';

/** Fixed one-second windows (API.md, Limits: window 1 second, per partnerId). */
export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the window resets. */
  reset: number;
  allowed: boolean;
}

export interface RateLimiter {
  hit(key: string, limit: number, nowMs: number): Promise<RateLimitResult>;
}

function result(count: number, limit: number, second: number): RateLimitResult {
  return { limit, remaining: Math.max(0, limit - count), reset: second + 1, allowed: count <= limit };
}

/** Counts in Redis so every gateway node shares the window; INCR and EXPIRE run atomically. */
export class RedisRateLimiter implements RateLimiter {
  private static readonly SCRIPT = `local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('EXPIRE', KEYS[1], 2) end return c`;
  constructor(private readonly redis: Redis, private readonly prefix: string) {}
  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitResult> {
    const second = Math.floor(nowMs / 1000);
    const count = Number(await this.redis.eval(RedisRateLimiter.SCRIPT, 1, `${this.prefix}rl:${key}:${second}`));
    return result(count, limit, second);
  }
}

/** The single-process fallback of the embedded mode. */
export class MemoryRateLimiter implements RateLimiter {
  private second = 0;
  private counts = new Map<string, number>();
  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitResult> {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) { this.second = second; this.counts.clear(); }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return result(count, limit, second);
  }
}
