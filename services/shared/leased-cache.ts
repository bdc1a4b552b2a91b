/**
 * A bounded per-process cache whose entries serve for a lease measured from when their LOAD
 * STARTED, not from when it ended (issue 18). That is what lets a writer reason about entries it
 * cannot reach: a value loaded by a read that started before a commit is gone, on every process,
 * at most `leaseMs` after that commit (services/shared/cluster-cache.ts builds on this).
 *
 * - A generation counter, bumped by every invalidation: a load that started before an invalidation
 *   never stores its result after it (the result may predate the write that caused it).
 * - `holdFor(ms)`: drops everything and keeps no load that starts within `ms` (a node that may
 *   have missed invalidations: just started, or reconnected to the cluster).
 * - Bounded: at most `maxEntries`, the least recently used goes first.
 * - No clock of its own: `now` is monotonic milliseconds (performance.now), injected by tests.
 *   Concurrent loads of one key are not merged: joining a load in flight would hand a caller that
 *   came after an invalidation a value read before it.
 */
export interface LeasedCacheOptions {
  /** How long an entry serves, from the start of the load that produced it. */
  leaseMs: number;
  maxEntries: number;
  /** Monotonic milliseconds. */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  loadStartedAt: number;
}

/** A load's start, checked before its result is kept. */
interface LoadTicket {
  generation: number;
  startedAt: number;
}

export class LeasedCache<V> {
  readonly leaseMs: number;
  readonly maxEntries: number;
  private readonly now: () => number;
  /** Map order is recency: a hit moves its key to the end; eviction takes the first. */
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;
  /** Loads that start before this instant are served but not kept (holdFor). */
  private keepFrom = Number.NEGATIVE_INFINITY;

  constructor(opts: LeasedCacheOptions) {
    if (!(opts.leaseMs >= 0) || !(opts.maxEntries >= 1)) throw new Error('LeasedCache: leaseMs >= 0 and maxEntries >= 1');
    this.leaseMs = opts.leaseMs;
    this.maxEntries = opts.maxEntries;
    this.now = opts.now ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key` if an entry still serves (no load, no recency change): tests and probes. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && this.serves(entry) ? entry.value : undefined;
  }

  /**
   * The value of `key`: the entry if its lease runs, else `load()`'s result, kept unless the load
   * started before an invalidation or a hold. `undefined` from the loader is never kept (nothing
   * to remember: the next call loads again).
   */
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.hit(key);
    if (hit) return hit.value;
    const ticket = this.ticket();
    const value = await load();
    if (value !== undefined) this.keep(ticket, key, value);
    return value;
  }

  /**
   * The values of `keys` in one load of the missing ones. `load(missing)` answers a map; a key it
   * leaves out is absent from the answer and not kept.
   */
  async getMany(keys: readonly string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const found = new Map<string, V>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const hit = this.hit(key);
      if (hit) found.set(key, hit.value);
      else missing.push(key);
    }
    if (!missing.length) return found;
    const ticket = this.ticket();
    const loaded = await load(missing);
    for (const key of missing) {
      if (!loaded.has(key)) continue;
      const value = loaded.get(key) as V;
      found.set(key, value);
      this.keep(ticket, key, value);
    }
    return found;
  }

  /** Drops these keys; loads in flight (of any key) keep nothing. */
  invalidate(keys: Iterable<string>): void {
    this.generation++;
    for (const key of keys) this.entries.delete(key);
  }

  invalidateAll(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Drops everything and keeps no load that starts within `ms` from now (Infinity: until the next hold). */
  holdFor(ms: number): void {
    this.invalidateAll();
    this.keepFrom = this.now() + ms;
  }

  private serves(entry: Entry<V>): boolean {
    return this.now() - entry.loadStartedAt < this.leaseMs;
  }

  private hit(key: string): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (!this.serves(entry)) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  private ticket(): LoadTicket {
    return { generation: this.generation, startedAt: this.now() };
  }

  private keep(ticket: LoadTicket, key: string, value: V): void {
    if (ticket.generation !== this.generation || ticket.startedAt < this.keepFrom) return;
    const current = this.entries.get(key);
    // Two loads of one key without an invalidation between: the later-started one's read is the newer.
    if (current && current.loadStartedAt > ticket.startedAt) return;
    this.entries.delete(key);
    this.entries.set(key, { value, loadStartedAt: ticket.startedAt });
    // Expired entries are left to this eviction or to their next hit: no sweep per store.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
