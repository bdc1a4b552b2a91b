import { Piscina } from 'piscina';
import type { DomainError } from '../../lib/errors/index.js';
import { FairSlots, type Lane, type WaitBounds } from './fair-slots.js';

export interface TurnPoolOptions {
  /** Piscina's worker (services/shared/worker-file.ts siblingWorker). */
  worker: { filename: string; workerData?: unknown };
  threads: number;
  bounds: WaitBounds;
  /** A job the worker answers at once: sent to each thread as it starts, so loading is not a job's time. */
  ping: unknown;
  /**
   * The refusal when a job would wait past a bound: `owner` when that owner's waiting jobs reached
   * theirs, `all` when the pool's did. Thrown before the job is queued.
   */
  refusal: (owner: string, bound: 'owner' | 'all') => DomainError;
}

/**
 * Worker threads that start with their first job and serve their owners in turn
 * (fair-slots.ts): the emission node's PDFs (services/emission/print-pool.ts) and large drafts
 * (services/emission/draft-pool.ts). Past the waiting bounds a job is refused at once (a 503 of
 * the caller's) instead of waiting ever longer.
 */
export class TurnPool {
  private pool: Piscina | null = null;
  private ready: Promise<void> | null = null;
  private readonly slots: FairSlots;

  constructor(private readonly opts: TurnPoolOptions) {
    this.slots = new FairSlots(opts.threads, opts.bounds);
  }

  async run<T>(owner: string, job: unknown): Promise<T> {
    const lane: Lane = { kind: 'turn', owner };
    if (this.slots.full(lane)) throw this.opts.refusal(owner, this.slots.full({ kind: 'first' }) ? 'all' : 'owner');
    return this.slots.run(lane, async () => {
      const pool = this.start();
      await this.ready;
      return (await pool.run(job)) as T;
    });
  }

  async destroy(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private start(): Piscina {
    if (this.pool) return this.pool;
    const { threads } = this.opts;
    const pool = new Piscina({ ...this.opts.worker, minThreads: threads, maxThreads: threads });
    // A thread that cannot load shows up as the jobs' own error.
    this.ready = Promise.all(Array.from({ length: threads }, () => pool.run(this.opts.ping))).then(() => undefined, () => undefined);
    this.pool = pool;
    return pool;
  }
}
