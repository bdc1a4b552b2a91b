import Channels from '@moleculer/channels';
import { LogThrottle } from './log-throttle.js';

/**
 * The Redis Streams channel adapter of @moleculer/channels, made to survive the loss of its consumer
 * groups (Redis restarted empty, FLUSHALL, a stream key deleted) without a node restart (issue 20,
 * defect 5). The stock adapter creates a group once, when a service subscribes; after that, every
 * XREADGROUP answers `NOGROUP` (or `UNBLOCKED` for the read that was waiting when the key went
 * away) and its read loop retries at once and logs each failure: ~660 lines a second per node, and
 * no message is read again until every node restarts.
 *
 * Here the group commands of every adapter connection are wrapped: on NOGROUP/UNBLOCKED the group
 * is created again from `0` with MKSTREAM (so entries added after the loss and before the group
 * came back are read, never skipped as a `$` group would) and the command answers "nothing this
 * time"; the loop then reads from the new group. Repeated failures back off, and the warning is
 * logged at most once a minute per stream and group. Consumers must be idempotent (they are:
 * deliveries are unique per event id, batch items are claimed by status), since a group recreated
 * from `0` over a stream that survived delivers its entries again.
 */

/** The first group of a channel also starts at `0`: a node starting after Redis lost its groups reads what was published meanwhile. */
export const GROUP_START_ID = '0';

/**
 * XAUTOCLAIM once a second per channel and node, not the adapter's every 100 ms: MONITOR on an idle
 * node running every service (2026-11-26) counted 13.6 commands a second, 10.6 of them XAUTOCLAIM
 * of `emission.batch`, whose entries are claimable only after its minIdleTime, the adapter's hour
 * (a lost batch item comes back sooner through the Postgres sweeper, services/emission/batch.ts);
 * after this, 4 a second. Not longer: the adapter schedules these loops (and its XPENDING loop,
 * every second) on timers it never clears, so a stopped node's process lives on until they fire,
 * and a test worker waits for them; a second is what it waited already.
 */
export const CLAIM_INTERVAL_MS = 1_000;

const LOG_EVERY_MS = 60_000;
const MAX_BACKOFF_MS = 5_000;
/** Failures further apart than this start the backoff again from zero. */
const QUIET_MS = 30_000;

type Command = (...args: any[]) => Promise<any>;

interface StreamClient {
  status: string;
  xgroup(...args: (string | number)[]): Promise<unknown>;
  [method: string]: any;
}

/** Which stream and group a wrapped command names, and what "nothing" looks like for it. */
const WRAPPED: Record<string, { target(args: any[]): { stream: string; group: string }; empty: () => unknown }> = {
  // XREADGROUP GROUP <group> <consumer> BLOCK … COUNT … STREAMS <stream> >
  xreadgroupBuffer: { target: (a) => ({ group: String(a[1]), stream: String(a[a.indexOf('STREAMS') + 1]) }), empty: () => null },
  // XAUTOCLAIM / XPENDING / XCLAIM <stream> <group> …
  xautoclaimBuffer: { target: (a) => ({ stream: String(a[0]), group: String(a[1]) }), empty: () => null },
  xpending: { target: (a) => ({ stream: String(a[0]), group: String(a[1]) }), empty: () => [] },
  xclaimBuffer: { target: (a) => ({ stream: String(a[0]), group: String(a[1]) }), empty: () => [] },
};

export function isMissingGroup(err: unknown): boolean {
  const message = String((err as Error)?.message ?? '');
  return message.startsWith('NOGROUP') || message.startsWith('UNBLOCKED');
}

/** Delay before the next try of a stream/group that keeps failing: 0 after a quiet spell, then 100 ms doubling up to 5 s. */
export class Backoff {
  private last = -Infinity;
  private delay = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  next(): number {
    const t = this.now();
    this.delay = t - this.last > QUIET_MS ? 0 : Math.min(Math.max(100, this.delay * 2), MAX_BACKOFF_MS);
    this.last = t;
    return this.delay;
  }
}

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

// CommonJS package: its named exports are not visible to ESM imports, the default export is.
export class SelfHealingRedisAdapter extends Channels.Adapters.Redis {
  private readonly throttle = new LogThrottle(LOG_EVERY_MS);
  private readonly backoffs = new Map<string, Backoff>();

  override async createRedisClient(name: string, opts: any): Promise<any> {
    const client = (await super.createRedisClient(name, opts)) as unknown as StreamClient;
    for (const [method, spec] of Object.entries(WRAPPED)) {
      const original: Command = client[method].bind(client);
      client[method] = async (...args: any[]) => {
        try {
          return await original(...args);
        } catch (err) {
          // A connection closed on purpose (unsubscribe, shutdown) ends the adapter's loop: pass it on.
          if (client.status === 'end') throw err;
          const { stream, group } = spec.target(args);
          const key = `${stream}|${group}`;
          let backoff = this.backoffs.get(key);
          if (!backoff) this.backoffs.set(key, (backoff = new Backoff()));
          const wait = backoff.next();
          if (!isMissingGroup(err)) {
            // Redis unreachable or similar: the adapter logs it; waiting keeps its loop from spinning.
            await sleep(wait);
            throw err;
          }
          await this.recreateGroup(client, stream, group);
          await sleep(wait);
          return spec.empty();
        }
      };
    }
    return client;
  }

  private async recreateGroup(client: StreamClient, stream: string, group: string): Promise<void> {
    let outcome = 'recreated from 0';
    try {
      await client.xgroup('CREATE', stream, group, GROUP_START_ID, 'MKSTREAM');
    } catch (err) {
      // Another connection (or node) recreated it first, and said so.
      if (String((err as Error)?.message ?? '').startsWith('BUSYGROUP')) return;
      outcome = `could not be recreated: ${(err as Error)?.message}`;
    }
    const log = this.throttle.take(`${stream}|${group}|${outcome}`);
    if (!log) return;
    const more = log.suppressed ? ` (${log.suppressed} more times since the last warning)` : '';
    this.logger.warn(`Streams consumer group '${group}' of '${stream}' was missing (Redis restarted empty, flushed or the key was deleted); ${outcome}${more}.`);
  }
}
