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

/** INCR and EXPIRE in one atomic step: a window key never outlives its second by more than one more. */
const HIT_LUA = `local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('EXPIRE', KEYS[1], 2) end return c`;
const HIT_COMMAND = 'fiscalRateLimitHit';
type HitClient = Redis & { [HIT_COMMAND](key: string): Promise<number> };

/**
 * The script as an ioredis command (defineCommand): it sends EVALSHA, the 40-character hash, and
 * the script text only on a connection's first use or once after NOSCRIPT (Redis restarted
 * empty, SCRIPT FLUSH), then EVALSHA again. One command per client: the client is shared per URL.
 */
function withHitScript(redis: Redis): HitClient {
  if (!(HIT_COMMAND in redis)) redis.defineCommand(HIT_COMMAND, { numberOfKeys: 1, lua: HIT_LUA });
  return redis as HitClient; // defineCommand added the method just above (or on an earlier limiter)
}

/**
 * Keys whose window this node has seen used up, for one second at a time. A window's count only
 * grows within its second, so once Redis answered a count at or past the limit every later hit of
 * that key in that second is refused on every node: this node then answers its 429 without asking
 * Redis, with the same headers (remaining 0, the same reset). Those refusals are not counted in
 * Redis, which changes no answer: a count past the limit refuses all the same. A raised limit (plan
 * changed within the second) asks Redis again. A flood then costs Redis the limit per node and
 * second, not one command per refused request (MONITOR, 20 requests of a Dev partner within one
 * second on one node: 20 EVAL before, 5 EVALSHA after): one partner's flood does not load the
 * Redis that every partner's requests wait on.
 */
class SpentWindows {
  private second = -1;
  private counts = new Map<string, number>();

  /** The count Redis last answered for `key` in `second`, when it leaves nothing under `limit`. */
  spent(key: string, limit: number, second: number): number | undefined {
    const count = second === this.second ? this.counts.get(key) : undefined;
    return count !== undefined && count >= limit ? count : undefined;
  }

  note(key: string, count: number, limit: number, second: number): void {
    if (count < limit || second < this.second) return;
    if (second > this.second) { this.second = second; this.counts.clear(); } // keeps one second's keys
    this.counts.set(key, Math.max(count, this.counts.get(key) ?? 0));
  }
}

/**
 * Counts in Redis so every gateway node shares the window: one command per allowed request, none
 * for a refusal this node already knows of (SpentWindows). MONITOR over ten authenticated requests
 * (2026-11-26) showed ten EVAL carrying the script's 98 characters, which Redis hashed on each
 * call, before this; ten EVALSHA after. (MONITOR also prints the script's own INCR and EXPIRE, as
 * `lua`: they run inside Redis and are no round trips.)
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: HitClient;
  private readonly spentWindows = new SpentWindows();
  constructor(redis: Redis, private readonly prefix: string) {
    this.redis = withHitScript(redis);
  }
  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitResult> {
    const second = Math.floor(nowMs / 1000);
    const spent = this.spentWindows.spent(key, limit, second);
    if (spent !== undefined) return result(spent + 1, limit, second);
    const count = Number(await this.redis[HIT_COMMAND](`${this.prefix}rl:${key}:${second}`));
    this.spentWindows.note(key, count, limit, second);
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
