import type { LoggerInstance, ServiceBroker } from 'moleculer';
import { LeasedCache } from './leased-cache.js';

/**
 * A per-node cache of rows that nearly never change (the issuer of a note, a partner's webhook
 * config: issue 18; who a credential is: services/auth/authentication-cache.ts), with one promise: once a write's HTTP answer has been sent, no node serves
 * what the row was before that write. Each node keeps a LeasedCache (entries serve for a lease L
 * counted from the start of the read that loaded them); the writing service, after its
 * transaction committed and before it answers, calls `invalidate`:
 *
 * 1. It calls the cache's drop action on every node that has it (the registry's endpoints of that
 *    action, in parallel) and waits for each ack, but never past L (+ a margin) from its start.
 * 2. A node that acked dropped the keys and bumped its generation: nothing it loaded before keeps,
 *    and whatever it loads after the ack started after the commit, so it reads the new row.
 * 3. A node that did not ack in time (slow, partitioned, its request lost) may still hold an entry
 *    loaded before the commit C; that entry's lease began before C, so it ended before C + L,
 *    which is no later than the writer's answer. Entries loaded after C are new already.
 *
 * So a write waits for the slowest node, at most L. Postgres is one primary (no read replica): a
 * read that starts after a commit is acknowledged sees it. The margin covers the difference
 * between two machines' monotonic clocks over L (parts per million) and timer granularity.
 *
 * What step 1 cannot see: a node the writer's registry does not list. Two cases, both fenced here:
 * - A node not yet announced (starting, or back after losing its transporter): its peers learn of
 *   it by its INFO packet, sent when the broker has started or the transporter reconnected. Until
 *   L after that moment the node keeps nothing it loads, so whatever it keeps was loaded after every
 *   peer knew of it (INFO delivered within L over Redis: an assumption, milliseconds in practice).
 * - A node whose transporter is down: it could not receive a drop, so while the transporter says it
 *   is disconnected the cache keeps nothing and serves nothing (until it reconnects, then as above).
 *   A node its peers dropped after a missed heartbeat (15 s, Moleculer's default) but that still
 *   thinks itself connected holds only entries older than that, long expired (L must stay below
 *   the heartbeat timeout: config.ts caps it at 10 s).
 * Every node must use the same L (CACHE_LEASE_MS), as they share ENCRYPTION_KEYS.
 * Without a transporter (the embedded mode) there is one node and the invalidation is local.
 */
export interface ClusterCacheOptions {
  /**
   * Full name of the action every node with this cache answers: by calling `drop` (params
   * { keys }, sent by `invalidate`) or `dropAll` (params { all: true }, sent by `invalidateAll`).
   */
  dropAction: string;
  /** L, in ms; 0 turns the cache off (every get loads). */
  leaseMs: number;
  maxEntries: number;
  logger: LoggerInstance;
}

/** Monotonic clocks of two machines drift by parts per million: 50 ms is generous over a few seconds. */
const CLOCK_MARGIN_MS = 50;

/** What the cache reads of Moleculer's transit (not in its typings). */
interface TransitState {
  connected: boolean;
  tx?: { connected?: boolean };
}

export class ClusterCache<V> {
  readonly local: LeasedCache<V>;
  private readonly onAnnounced = () => this.local.holdFor(this.broker.started ? this.opts.leaseMs : Number.POSITIVE_INFINITY);

  constructor(private readonly broker: ServiceBroker, private readonly opts: ClusterCacheOptions) {
    this.local = new LeasedCache<V>({ leaseMs: opts.leaseMs, maxEntries: opts.maxEntries });
    if (broker.transit) {
      // Not announced yet: keep nothing until the broker has started (then L more).
      this.onAnnounced();
      broker.localBus.on('$broker.started', this.onAnnounced);
      broker.localBus.on('$transporter.connected', this.onAnnounced);
    }
  }

  /** Stops following the broker's events (the service stopped). */
  close(): void {
    this.broker.localBus.off('$broker.started', this.onAnnounced);
    this.broker.localBus.off('$transporter.connected', this.onAnnounced);
  }

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.reachable()) return load();
    return this.local.get(key, load);
  }

  getMany(keys: readonly string[], load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    if (!this.reachable()) return load([...new Set(keys)]);
    return this.local.getMany(keys, load);
  }

  /** This node's part: the drop action's handler. */
  drop(keys: readonly string[]): void {
    this.local.invalidate(keys);
  }

  /** This node's part of `invalidateAll`. */
  dropAll(): void {
    this.local.invalidateAll();
  }

  /**
   * After a write committed, before it answers: these keys are dropped on every node,
   * or the lease of whatever a silent node holds has run out (see the file's comment).
   */
  async invalidate(keys: readonly string[]): Promise<void> {
    const deadline = performance.now() + this.opts.leaseMs + CLOCK_MARGIN_MS;
    this.drop(keys);
    await this.propagate({ keys }, deadline);
  }

  /**
   * `invalidate` of every key, for a cache whose writes cannot name the keys they change (the
   * authentications: a key is a credential, a write is about a partner or a user).
   */
  async invalidateAll(): Promise<void> {
    const deadline = performance.now() + this.opts.leaseMs + CLOCK_MARGIN_MS;
    this.dropAll();
    await this.propagate({ all: true }, deadline);
  }

  /** Step 1 of the file's comment: every other node's ack, or the deadline. */
  private async propagate(params: { keys: readonly string[] } | { all: true }, deadline: number): Promise<void> {
    if (this.opts.leaseMs === 0) return;
    const others = new Set((this.broker.registry.actions.get(this.opts.dropAction)?.endpoints ?? []).map((ep) => ep.id));
    others.delete(this.broker.nodeID);
    await Promise.all([...others].map(async (nodeID) => {
      try {
        // Untracked: a call that timed out stays pending inside Moleculer, and a tracked one would
        // hold up this node's graceful stop for its whole shutdown timeout.
        await this.broker.call(this.opts.dropAction, params, { nodeID, timeout: Math.max(1, deadline - performance.now()), retries: 0, tracking: false });
      } catch (err) {
        this.opts.logger.warn({ nodeID, action: this.opts.dropAction, err: (err as Error).message }, 'cache drop not acknowledged by a node; the write answers once its entries expired');
        const rest = deadline - performance.now();
        if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      }
    }));
  }

  /** Whether this node can receive drops now; if not, nothing is kept or served until it is announced again. */
  private reachable(): boolean {
    const transit = this.broker.transit as unknown as TransitState | undefined;
    if (!transit || (transit.connected && transit.tx?.connected !== false)) return true;
    this.local.holdFor(Number.POSITIVE_INFINITY);
    return false;
  }
}
