import { Piscina } from 'piscina';
import { DomainError, type ErrorCode } from '../../lib/errors/index.js';
import type { ParsedCertificate } from '../../lib/issuer/certificate.js';
import { checkPkcs12Iterations } from '../../lib/issuer/pkcs12-iterations.js';
import type { Pkcs12Job, Pkcs12Outcome } from './pkcs12.worker.js';

export interface Pkcs12PoolOptions {
  /** Time limit of one job, queueing included; past it the worker is terminated. */
  timeoutMs: number;
  /** Worker threads per node: certificate work never takes more than these cores. */
  maxThreads?: number;
  /** Jobs waiting for a thread; beyond, 503 at once instead of an ever longer wait. */
  maxQueue?: number;
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

  constructor(private readonly opts: Pkcs12PoolOptions) {
    this.pool = new Piscina({
      filename: new URL('./pkcs12.worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: opts.maxThreads ?? 2,
      maxQueue: opts.maxQueue ?? 32,
      // A thread starts in about a second (it loads the TypeScript loader and forge): keep it for
      // a while after use, but an idle node ends up holding none.
      idleTimeout: 10 * 60_000,
    });
  }

  /** Opens a stored A1 (signing material). */
  read(pfx: Buffer, password: string): Promise<ParsedCertificate> {
    return this.run({ op: 'read', pfx, password });
  }

  /** The full acceptance check of an upload (lib/issuer/certificate.ts acceptCertificate). */
  accept(pfx: Buffer, password: string, issuerCnpj: string, now: Date): Promise<ParsedCertificate> {
    return this.run({ op: 'accept', pfx, password, issuerCnpj, nowMs: now.getTime() });
  }

  async destroy(): Promise<void> {
    await this.pool.destroy();
  }

  private async run(job: Pkcs12Job): Promise<ParsedCertificate> {
    checkPkcs12Iterations(Buffer.from(job.pfx));
    let outcome: Pkcs12Outcome;
    try {
      outcome = await this.pool.run(job, { signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err: any) {
      if (err?.name === 'AbortError' || err?.name === 'TimeoutError') {
        throw new DomainError('CERTIFICADO_INVALIDO', { tempoMaximoMs: this.opts.timeoutMs }, `Processamento do certificado excedeu ${this.opts.timeoutMs} ms (contagem de iterações do PKCS#12 acima do usual?).`);
      }
      if (/queue is at limit/i.test(String(err?.message))) {
        throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Processamento de certificados ocupado neste momento; tente novamente.');
      }
      throw err;
    }
    if (!outcome.ok) throw new DomainError(outcome.refusal.type as ErrorCode, outcome.refusal.data, outcome.refusal.message);
    return outcome.certificate;
  }
}
