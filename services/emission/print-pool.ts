import { DomainError } from '../../lib/errors/index.js';
import { TurnPool } from '../shared/turn-pool.js';
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
 * delays an emission (a large note's draft has threads of its own: draft-pool.ts). The threads
 * start on the first PDF.
 */
export class PrintPool {
  private readonly threads: TurnPool;

  constructor(opts: PrintPoolOptions = {}) {
    this.threads = new TurnPool({
      worker: siblingWorker(import.meta.url, 'print.worker'), threads: opts.threads ?? 1, ping: { kind: 'ping' },
      bounds: { waiting: opts.maxQueue ?? 64, waitingPerOwner: opts.maxQueuePerPartner ?? 8 },
      refusal: () => new DomainError('SERVICE_UNAVAILABLE', undefined, 'Geração de PDF ocupada neste momento; tente novamente.'),
    });
  }

  /** A renderer whose jobs take `partnerId`'s turn. */
  rendererFor(partnerId: string): PdfRenderer {
    return (job) => this.render(job, partnerId);
  }

  async render(job: PrintJob, partnerId: string): Promise<Buffer> {
    const pdf = await this.threads.run<Uint8Array>(partnerId, job);
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  destroy(): Promise<void> {
    return this.threads.destroy();
  }
}
