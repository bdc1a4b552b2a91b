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

/**
 * INCRBY and EXPIRE in one atomic step: a window key never outlives its second by more than one
 * more. ARGV[1] is how many of the window's requests the calling node takes at once (a lease).
 */
const HIT_LUA = `local c = redis.call('INCRBY', KEYS[1], ARGV[1]) if c == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], 2) end return c`;
const HIT_COMMAND = 'fiscalRateLimitHitBy';
type HitClient = Redis & { [HIT_COMMAND](key: string, by: number): Promise<number> };

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

/** Requests of a window one lease takes at most: a twentieth of the limit, so leases that other nodes hold unused cost little of it. */
export function maxLease(limit: number): number {
  return Math.max(1, Math.floor(limit / 20));
}

/** Counts of a window this node took from Redis and has not used yet (`next` to `last`, in order). */
interface Lease { next: number; last: number }

/** One key's window on this node: what it holds, and how much it took last. */
interface Held { limit: number; leases: Lease[]; size: number }

/**
 * Counts in Redis so every gateway node shares the window, taking several of the window's
 * requests at once when a partner keeps coming within one second (issue 18: the round trip to
 * Redis was a command per request). A key's first request of a second takes 1; each time what it
 * took is used up within that second, the node takes twice as many as the last time, up to
 * `maxLease(limit)` (1 for a limit under 40, so Dev, Starter and Growth count request by request
 * as before). Each request answers the count it was given, so X-RateLimit-Remaining falls by one
 * per request on a node as it did. Never more than the limit pass in a window, over all nodes: a
 * lease is granted only out of what Redis counted under the limit. What a node took and did not
 * use before its second ended is lost to the others: at most `maxLease(limit) - 1` per node and
 * window, only for a partner at its limit on several nodes. No refusal is counted twice (SpentWindows).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: HitClient;
  private readonly spentWindows = new SpentWindows();
  /** Per key, this second's leases; the previous second's are kept for requests still in it. */
  private held = new Map<string, Held>();
  private older = new Map<string, Held>();
  private second = -1;

  constructor(redis: Redis, private readonly prefix: string) {
    this.redis = withHitScript(redis);
  }

  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitResult> {
    const second = Math.floor(nowMs / 1000);
    const windows = this.windowsOf(second);
    const held = windows?.get(key);
    // What this node holds first: Redis may already count the whole window (this node's lease in it).
    const taken = held && held.limit === limit ? take(held) : undefined;
    if (taken !== undefined) return result(taken, limit, second);
    const spent = this.spentWindows.spent(key, limit, second);
    if (spent !== undefined) return result(spent + 1, limit, second);
    const size = held && held.limit === limit ? Math.min(held.size * 2, maxLease(limit)) : 1;
    return this.ask(key, limit, second, size, windows);
  }

  /** Takes `size` of the window's counts from Redis: the first for this request, the rest held for the next ones. */
  private async ask(key: string, limit: number, second: number, size: number, windows: Map<string, Held> | undefined): Promise<RateLimitResult> {
    const count = Number(await this.redis[HIT_COMMAND](`${this.prefix}rl:${key}:${second}`, size));
    const first = count - size + 1;
    const last = Math.min(count, limit);
    this.spentWindows.note(key, count, limit, second);
    if (first > last) return result(first, limit, second);
    if (windows && last > first) {
      const held = windows.get(key);
      const fresh = !held || held.limit !== limit;
      const kept: Held = fresh ? { limit, leases: [], size } : held;
      kept.size = Math.max(kept.size, size);
      kept.leases.push({ next: first + 1, last });
      if (fresh) windows.set(key, kept);
    } else if (windows && !windows.has(key)) {
      windows.set(key, { limit, leases: [], size });
    }
    return result(first, limit, second);
  }

  /** The leases of `second` (this one or the one before), or undefined for an older second. */
  private windowsOf(second: number): Map<string, Held> | undefined {
    if (second > this.second) {
      this.older = second === this.second + 1 ? this.held : new Map();
      this.held = new Map();
      this.second = second;
    }
    if (second === this.second) return this.held;
    return second === this.second - 1 ? this.older : undefined;
  }
}

/** The next count this node holds for a window, if any. */
function take(held: Held): number | undefined {
  while (held.leases.length) {
    const lease = held.leases[0]!;
    if (lease.next <= lease.last) return lease.next++;
    held.leases.shift();
  }
  return undefined;
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
