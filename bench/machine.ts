import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { loadavg } from 'node:os';
import { aValidNfeBody, anItem, closingPayments } from '../test/support/nfe-factories.js';
import { roundedMedian } from './speed-sampler.js';

/**
 * A yardstick of the machine's speed at the time of a measure, printed in every BENCH line, taken
 * while the cluster is idle: the median of an RSA-2048 PKCS#1 v1.5 SHA-1 signature by node:crypto
 * (the product's signature of every note; compute-bound), the median of a JSON round trip of a
 * 50-item NF-e body (JavaScript that allocates, as most of a note's path does), and the 1-minute
 * load average. The sessions' VMs of one kind signed in 0.21 to 0.82 ms, and one VM's speed swung
 * by up to 2× within seconds (bench/speed-sampler.ts measures it during a scenario), so a figure
 * says little without the speed it was measured at.
 */
export interface Machine {
  rsa2048SignMs: number;
  json50ItemsMs: number;
  loadAverage1m: number;
}

let key: KeyObject | undefined;
const DATA = Buffer.alloc(600, 'x'); // about a SignedInfo's size

const items = Array.from({ length: 50 }, (_, i) => anItem({ codigo: `P${i + 1}`, descricao: `Produto ${i + 1}` }));
const BODY = aValidNfeBody({ items, pagamentos: closingPayments(items) });

/** The median of `runs` timings of `work`, in ms (three decimals), after a few unmeasured. */
function median(runs: number, work: () => unknown): number {
  for (let i = 0; i < 20; i++) work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    work();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return roundedMedian(times)!;
}

export function machineYardstick(runs = 200): Machine {
  const rsa = (key ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  return {
    rsa2048SignMs: median(runs, () => sign('sha1', DATA, rsa)),
    json50ItemsMs: median(runs, () => JSON.parse(JSON.stringify(BODY))),
    loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}
