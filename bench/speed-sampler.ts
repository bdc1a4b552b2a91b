import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The machine's speed while a scenario runs. This VM's speed swings by up to 2× within seconds
 * with nothing of ours running (sampled every 2 s on an idle machine, 2026-11-28: an RSA-2048
 * signature 0.24 to 0.47 ms, a JSON round trip of a 50-item body 0.15 to 0.27 ms): a scenario's
 * figures say little without the speed they were measured at. Every 500 ms a child process signs
 * 20 times and makes 20 JSON round trips of a 50-line body (compute-bound, and JavaScript that
 * allocates, as most of a note's path does), and reports the CPU time each took (its own
 * getrusage: waiting for a core under the scenario's load is not counted, a slower core is). The
 * medians over the scenario's measure are its speed. One sampler serves a whole bench (its start,
 * a key pair and a warm-up, falls in no measure). It costs about 2 % of one core, in a process of
 * its own, outside every figure the bench reports.
 */
const CHILD = `
const { generateKeyPairSync, sign } = require('node:crypto');
const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const data = Buffer.alloc(600, 'x');
const body = { items: Array.from({ length: 50 }, (_, i) => ({ codigo: 'P' + i, descricao: 'Produto de teste ' + i, ncm: '61091000', cfop: '5102',
  unidade: 'UN', quantidade: 2, valorUnitario: 50, icms: { origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18 },
  pis: { cst: '01', baseCalculo: 100, aliquota: 1.65, valor: 1.65 }, cofins: { cst: '01', baseCalculo: 100, aliquota: 7.6, valor: 7.6 } })) };
const cpuMsEach = (n, work) => { const t = process.cpuUsage(); for (let i = 0; i < n; i++) work(); const d = process.cpuUsage(t); return ((d.user + d.system) / n / 1000).toFixed(4); };
cpuMsEach(20, () => sign('sha1', data, key));
cpuMsEach(20, () => JSON.parse(JSON.stringify(body)));
setInterval(() => {
  process.stdout.write(cpuMsEach(20, () => sign('sha1', data, key)) + ' ' + cpuMsEach(20, () => JSON.parse(JSON.stringify(body))) + '\\n');
}, 500);
process.stdin.on('end', () => process.exit(0)).resume();
`;

export interface Speed {
  /** Median CPU ms of one RSA-2048 signature over the samples (null: none came). */
  rsa2048SignCpuMs: number | null;
  /** Median CPU ms of one JSON round trip of a 50-line body. */
  json50ItemsCpuMs: number | null;
  samples: number;
}

export interface SpeedSampler {
  /** Opens a window: the function it returns gives the medians of the samples taken since. */
  window(): () => Speed;
  stop(): void;
}

/** The median of `values`, rounded to three decimals (null for none). */
export function roundedMedian(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[sorted.length >> 1]! * 1000) / 1000 : null;
}

export function startSpeedSampler(): SpeedSampler {
  const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rsa: number[] = [];
  const json: number[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const [a, b] = line.split(' ').map(Number);
    if (Number.isFinite(a) && Number.isFinite(b)) { rsa.push(a!); json.push(b!); }
  });
  return {
    window() {
      const from = rsa.length;
      return () => ({ rsa2048SignCpuMs: roundedMedian(rsa.slice(from)), json50ItemsCpuMs: roundedMedian(json.slice(from)), samples: rsa.length - from });
    },
    stop() {
      child.stdin!.end();
      child.kill();
    },
  };
}
