import { Piscina } from 'piscina';
import { DomainError } from '../../lib/errors/index.js';
import type { ParsedCertificate } from '../../lib/issuer/certificate.js';
import { checkPkcs12Iterations } from '../../lib/issuer/pkcs12-iterations.js';
import type { Pkcs12Job, Pkcs12Outcome } from './pkcs12.worker.js';
import { FairSlots, type Lane } from '../shared/fair-slots.js';
import { siblingWorker } from '../shared/worker-file.js';
import { refusedWith } from '../shared/worker-refusal.js';


export interface Pkcs12PoolOptions {
  /** Time limit of one job once a thread runs it (waiting for a thread does not count). */
  timeoutMs: number;
  /** Worker threads per node: certificate work never takes more than these cores. */
  maxThreads?: number;
  /** Jobs waiting for a thread; beyond, 503 at once instead of an ever longer wait. */
  maxQueue?: number;
  /** Uploads of one partner waiting for a thread; beyond, 503 at once for that partner only. */
  maxQueuePerPartner?: number;
}

/**
 * Certificate work off the event loop (issue 23, defect 1). node-forge derives PKCS#12 keys in
 * pure JS; on the service's own thread a costly file froze every request of the node. Each job
 * runs in a worker thread with a time limit: when it passes, piscina terminates that worker (the
 * only way to stop synchronous JS) and the job is refused; other jobs and the node go on. The
 * iteration bound is checked here first too, so the common hostile file is refused in
 * microseconds without waiting for a thread.
 */
export class Pkcs12Pool {
  private readonly pool: Piscina;
  /**
   * At most one job per thread is handed to piscina, so a job's clock starts when a thread takes
   * it: a burst of valid A1s (every issuer's first signature after a restart) waits its turn and
   * is never refused as slow because of the jobs ahead of it. Reads for signing go first, uploads
   * take turns by partner (services/shared/fair-slots.ts).
   */
  private readonly slots: FairSlots;
  private readonly threads: number;
  /** Resolves once every thread has loaded: starting one (TypeScript loader, forge) takes a second or more, not counted in a job's time. */
  private ready: Promise<void>;

  constructor(private readonly opts: Pkcs12PoolOptions) {
    this.threads = opts.maxThreads ?? 2;
    this.slots = new FairSlots(this.threads, { waiting: opts.maxQueue ?? 256, waitingPerOwner: opts.maxQueuePerPartner ?? 16 });
    // The threads live as long as the pool: a stored A1 is opened on every cache miss of signing.
    this.pool = new Piscina({ ...siblingWorker(import.meta.url, 'pkcs12.worker'), minThreads: this.threads, maxThreads: this.threads });
    this.ready = this.warm();
  }

  private warm(): Promise<void> {
    // A thread that cannot load shows up as the jobs' own error.
    return Promise.all(Array.from({ length: this.threads }, () => this.pool.run({ op: 'ping' } satisfies Pkcs12Job))).then(() => undefined, () => undefined);
  }

  /** Opens a stored A1 (signing material). */
  read(pfx: Buffer, password: string): Promise<ParsedCertificate> {
    return this.run({ op: 'read', pfx, password }, { kind: 'first' });
  }

  /** The full acceptance check of an upload (lib/issuer/certificate.ts acceptCertificate) by `partnerId`. */
  accept(pfx: Buffer, password: string, issuerCnpj: string, now: Date, partnerId: string): Promise<ParsedCertificate> {
    return this.run({ op: 'accept', pfx, password, issuerCnpj, nowMs: now.getTime() }, { kind: 'turn', owner: partnerId });
  }

  async destroy(): Promise<void> {
    await this.pool.destroy();
  }

  private async run(job: Exclude<Pkcs12Job, { op: 'ping' }>, lane: Lane): Promise<ParsedCertificate> {
    checkPkcs12Iterations(Buffer.from(job.pfx));
    if (this.slots.full(lane)) {
      throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Processamento de certificados ocupado neste momento; tente novamente.');
    }
    let outcome: Pkcs12Outcome;
    try {
      outcome = await this.slots.run(lane, async () => {
        await this.ready;
        return this.pool.run(job, { signal: AbortSignal.timeout(this.opts.timeoutMs) });
      });
    } catch (err: any) {
      if (err?.name === 'AbortError' || err?.name === 'TimeoutError') {
        // piscina replaces the terminated thread; the next job waits until it has loaded.
        this.ready = this.warm();
        throw new DomainError('CERTIFICADO_INVALIDO', { tempoMaximoMs: this.opts.timeoutMs }, `Processamento do certificado excedeu ${this.opts.timeoutMs} ms (contagem de iterações do PKCS#12 acima do usual?).`);
      }
      throw err;
    }
    if (!outcome.ok) throw refusedWith(outcome.refusal);
    if (!outcome.certificate) throw new Error('pkcs12 worker answered without a certificate');
    return outcome.certificate;
  }
}
