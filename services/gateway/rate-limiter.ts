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
 * more. The count equals ARGV[1] only when the key was new.
 */
const HIT_LUA = `local c = redis.call('INCRBY', KEYS[1], ARGV[1]) if c == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], 2) end return c`;
const HIT_COMMAND = 'fiscalRateLimitHits';
type HitClient = Redis & { [HIT_COMMAND](key: string, hits: number): Promise<number> };

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

interface Waiting {
  limit: number;
  resolve(r: RateLimitResult): void;
  reject(e: unknown): void;
}

/** One window key's hits on this node: at most one command in flight, the rest wait for the next. */
interface WindowQueue {
  inFlight: boolean;
  waiting: Waiting[];
}

/**
 * Counts in Redis so every gateway node shares the window. At most one command per window key is
 * in flight from a node: a hit that finds none sends its own at once (no wait when requests come
 * one at a time); hits that arrive while one is in flight wait for it and then share one INCRBY of
 * their number, and take its counts in arrival order (count − n + 1 … count). That is exactly what
 * n INCR one after another would have answered, so every node still sees one exact window: nothing
 * is counted that no request used (a lease taken ahead of demand would refuse another node's
 * requests early). A burst of 300 requests at once costs a node a handful of commands, not 300, and
 * a refusal this node already knows of costs none (SpentWindows). MONITOR over ten authenticated
 * requests one after another (2026-11-26) showed ten EVAL carrying the script's text, which Redis
 * hashed on each call, before the script was an EVALSHA command; ten EVALSHA after. (MONITOR also
 * prints the script's own INCRBY and EXPIRE, as `lua`: they run inside Redis and are no round trips.)
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: HitClient;
  private readonly spentWindows = new SpentWindows();
  private readonly queues = new Map<string, WindowQueue>();
  constructor(redis: Redis, private readonly prefix: string) {
    this.redis = withHitScript(redis);
  }

  hit(key: string, limit: number, nowMs: number): Promise<RateLimitResult> {
    const second = Math.floor(nowMs / 1000);
    const spent = this.spentWindows.spent(key, limit, second);
    if (spent !== undefined) return Promise.resolve(result(spent + 1, limit, second));
    const windowKey = `${this.prefix}rl:${key}:${second}`;
    let queue = this.queues.get(windowKey);
    if (!queue) this.queues.set(windowKey, (queue = { inFlight: false, waiting: [] }));
    return new Promise((resolve, reject) => {
      queue.waiting.push({ limit, resolve, reject });
      if (!queue.inFlight) this.send(windowKey, queue, key, second);
    });
  }

  /** Sends one INCRBY for every hit waiting on `queue`, then the next for those that came meanwhile. */
  private send(windowKey: string, queue: WindowQueue, key: string, second: number): void {
    const batch: Waiting[] = [];
    for (const w of queue.waiting) {
      const spent = this.spentWindows.spent(key, w.limit, second); // the last answer used the window up
      if (spent === undefined) batch.push(w);
      else w.resolve(result(spent + 1, w.limit, second));
    }
    queue.waiting = [];
    if (batch.length === 0) { this.queues.delete(windowKey); return; }
    queue.inFlight = true;
    this.redis[HIT_COMMAND](windowKey, batch.length).then((total) => {
      const first = Number(total) - batch.length + 1;
      batch.forEach((w, i) => {
        this.spentWindows.note(key, first + i, w.limit, second);
        w.resolve(result(first + i, w.limit, second));
      });
    }, (err: unknown) => { for (const w of batch) w.reject(err); }).finally(() => {
      queue.inFlight = false;
      if (queue.waiting.length > 0) this.send(windowKey, queue, key, second);
      else this.queues.delete(windowKey);
    });
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
