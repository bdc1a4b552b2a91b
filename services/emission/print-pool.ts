import { Piscina } from 'piscina';
import { DomainError } from '../../lib/errors/index.js';
import { FairSlots } from '../shared/fair-slots.js';
import { siblingWorker } from '../shared/worker-file.js';
import type { PrintJob } from './print.worker.js';

export interface PrintPoolOptions {
  /** Threads drawing PDFs on this node. */
  threads?: number;
  /** PDFs waiting for a thread; beyond, 503 at once instead of an ever longer wait. */
  maxQueue?: number;
  /** PDFs of one partner waiting; beyond, 503 for that partner only. */
  maxQueuePerPartner?: number;
}

/** Renders a PDF off the event loop (print.worker.ts). */
export type PdfRenderer = (job: PrintJob) => Promise<Buffer>;

/**
 * The emission node's PDF threads. Partners take turns (services/shared/fair-slots.ts): one
 * partner printing a thousand DANFEs delays another's next one by at most one PDF, and never
 * delays an emission, whose work stays on the event loop. The threads start on the first PDF.
 */
export class PrintPool {
  private pool: Piscina | null = null;
  private ready: Promise<void> | null = null;
  private readonly slots: FairSlots;
  private readonly threads: number;

  constructor(opts: PrintPoolOptions = {}) {
    this.threads = opts.threads ?? 1;
    this.slots = new FairSlots(this.threads, { waiting: opts.maxQueue ?? 64, waitingPerOwner: opts.maxQueuePerPartner ?? 8 });
  }

  /** A renderer whose jobs take `partnerId`'s turn. */
  rendererFor(partnerId: string): PdfRenderer {
    return (job) => this.render(job, partnerId);
  }

  async render(job: PrintJob, partnerId: string): Promise<Buffer> {
    const lane = { kind: 'turn', owner: partnerId } as const;
    if (this.slots.full(lane)) {
      throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Geração de PDF ocupada neste momento; tente novamente.');
    }
    const pdf = await this.slots.run(lane, async () => {
      const pool = this.start();
      await this.ready;
      return (await pool.run(job)) as Uint8Array;
    });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  async destroy(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private start(): Piscina {
    if (this.pool) return this.pool;
    const pool = new Piscina({ ...siblingWorker(import.meta.url, 'print.worker'), minThreads: this.threads, maxThreads: this.threads });
    // A thread that cannot load shows up as the jobs' own error.
    this.ready = Promise.all(Array.from({ length: this.threads }, () => pool.run({ kind: 'ping' }))).then(() => undefined, () => undefined);
    this.pool = pool;
    return pool;
  }
}
