import { performance } from 'node:perf_hooks';

/**
 * Per-stage durations of the emission path, kept in memory by each emission node (one StageTimer
 * per service instance) and read through `v1.emission.stageStats`. Recording is one array write;
 * percentiles are computed only when asked for.
 *
 * Each stage keeps the most recent `capacity` samples in a ring buffer, so the figures describe
 * recent traffic and memory stays bounded (8 bytes × capacity × stages).
 */
export const STAGES = [
  'issuer', // v1.issuer.forEmission (issuer snapshot + preflight), one service call
  'validate', // strict request validation
  'rules+totals', // business rules (check) + totals
  'approximate-tax', // only for issuers with valorAproximadoTributosEnabled: v1.classification.ratesFor + lib
  'material', // v1.issuer.signingMaterial, one service call
  'build', // infNFe, canonical by construction (includes the emission context and key)
  'sign', // digest + RSA signature, QR code (NFC-e) and assembly of the NFe
  'xsd', // official XSD validation of the whole NFe
  'draft', // build + XSD of a large note in a worker thread (draft-pool.ts), waiting for the thread included
  'persist', // numbering transaction minus the build, TRANSMITTING commit, transmitted XML read back
  'lock', // part of persist: waiting for the sequence row lock (SELECT … FOR UPDATE)
  'authority', // v1.sefaz.authorize: sefaz service + mTLS round trip to the authority (simulator)
  'outcome', // outcome transaction (status, nfeProc, history, outbox event)
  'total', // the whole emitDocument
] as const;
export type Stage = (typeof STAGES)[number];

export interface Percentiles {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile (p in 0..100) of an ascending array; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1]!;
}

/** The last `capacity` samples of one stage. */
export class SampleRing {
  private readonly values: Float64Array;
  private next = 0;
  private filled = 0;

  constructor(readonly capacity = 20_000) {
    this.values = new Float64Array(capacity);
  }

  record(ms: number): void {
    this.values[this.next] = ms;
    this.next = (this.next + 1) % this.capacity;
    if (this.filled < this.capacity) this.filled++;
  }

  get count(): number {
    return this.filled;
  }

  summary(): Percentiles {
    const sorted = this.values.slice(0, this.filled).sort();
    let sum = 0;
    for (const v of sorted) sum += v;
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return {
      count: this.filled,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      mean: round(this.filled ? sum / this.filled : Number.NaN),
      max: round(this.filled ? sorted[this.filled - 1]! : Number.NaN),
    };
  }

  reset(): void {
    this.next = 0;
    this.filled = 0;
  }
}

/** Hears every sample as it is recorded (the node's Prometheus histograms: services/shared/metrics.ts). */
export type StageObserver = (stage: Stage, ms: number) => void;

export class StageTimer {
  private readonly rings = new Map<Stage, SampleRing>();

  constructor(private readonly capacity = 20_000, private readonly observer?: StageObserver) {}

  record(stage: Stage, ms: number): void {
    let ring = this.rings.get(stage);
    if (!ring) this.rings.set(stage, (ring = new SampleRing(this.capacity)));
    ring.record(ms);
    this.observer?.(stage, ms);
  }

  /** Runs `fn` and records its duration under `stage` (also when it throws). */
  async time<T>(stage: Stage, fn: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.record(stage, performance.now() - start);
    }
  }

  /** p50/p99/mean/max in ms per stage that has samples, in STAGES order. */
  stats(): Partial<Record<Stage, Percentiles>> {
    const out: Partial<Record<Stage, Percentiles>> = {};
    for (const stage of STAGES) {
      const ring = this.rings.get(stage);
      if (ring && ring.count > 0) out[stage] = ring.summary();
    }
    return out;
  }

  reset(): void {
    for (const ring of this.rings.values()) ring.reset();
  }
}

export const now = (): number => performance.now();
