/**
 * Memory soak (issue 23, defect 4): the production layout as real processes (standalone simulator,
 * gateway, two emission nodes, core: test/support/cluster.ts) emits SOAK_NOTES NF-e (default
 * 100,000) at SOAK_CONNECTIONS in flight, and every SOAK_EVERY notes prints each process's resident
 * memory (/proc/<pid>/status VmRSS) and, for the Moleculer nodes, V8's heap in use ($node.health
 * over the cluster's own transporter). A process whose heap keeps growing from one sample to the
 * next holds something per note; RSS alone also grows with the allocator's free lists.
 *
 *   npm run bench:soak                                  # 100,000 notes, a sample every 10,000
 *   SOAK_NOTES=20000 SOAK_EVERY=2000 npm run bench:soak
 *
 * The last line is `BENCH {"scenario":"soak",…}` with the first and last sample per process.
 */
import { readFileSync } from 'node:fs';
import { ServiceBroker } from 'moleculer';
import { startCluster, partnerWithKey, type Cluster, type Role } from '../test/support/cluster.js';
import { companyWithA1 } from '../test/support/e2e.js';
import { aValidNfeBody } from '../test/support/nfe-factories.js';

const NOTES = Number(process.env.SOAK_NOTES ?? 100_000);
const EVERY = Number(process.env.SOAK_EVERY ?? 10_000);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 10);
const ROLES: Role[] = ['simulator', 'gateway', 'emission-1', 'emission-2', 'core'];

interface Sample { notes: number; rssMb: Record<string, number>; heapMb: Record<string, number> }

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

/** V8's heap in use per Moleculer node, keyed by role (node ids are `<namespace>-<role>-<n>`). */
async function heapsMb(observer: ServiceBroker): Promise<Record<string, number>> {
  const nodes = await observer.call<any[], any>('$node.list', { onlyAvailable: true });
  const out: Record<string, number> = {};
  for (const node of nodes) {
    if (node.id === observer.nodeID) continue;
    const role = ROLES.find((r) => node.id.includes(`-${r}-`));
    if (!role) continue;
    const health = await observer.call<any, any>('$node.health', {}, { nodeID: node.id });
    out[role] = Math.round(health.process.memory.heapUsed / 1024 / 1024);
  }
  return out;
}

async function sample(cluster: Cluster, observer: ServiceBroker, notes: number): Promise<Sample> {
  const rss = Object.fromEntries(ROLES.map((r) => [r, rssMb(cluster.pid(r))]));
  return { notes, rssMb: rss, heapMb: await heapsMb(observer) };
}

function print(s: Sample): void {
  const cells = ROLES.map((r) => `${r} ${s.rssMb[r]} MB${s.heapMb[r] !== undefined ? ` (heap ${s.heapMb[r]})` : ''}`);
  console.log(`${String(s.notes).padStart(7)} notes | ${cells.join(' | ')}`);
}

async function main(): Promise<void> {
  const cluster = await startCluster({ EMISSION_NUMBERING_TIMEOUT_MS: '60000' });
  const observer = new ServiceBroker({
    namespace: cluster.env.NAMESPACE, nodeID: `${cluster.env.NAMESPACE}-soak-observer`, logger: false,
    transporter: { type: 'Redis', options: { url: cluster.env.REDIS_URL, prefix: cluster.env.REDIS_PREFIX } },
  });
  try {
    await observer.start();
    await new Promise((r) => setTimeout(r, 3_000)); // the nodes' INFO packets arrive
    const { apiKey } = await partnerWithKey(cluster, 'ENTERPRISE');
    const headers = { 'x-api-key': apiKey };
    const { issuerId } = await companyWithA1(cluster, headers);
    const samples: Sample[] = [await sample(cluster, observer, 0)];
    print(samples[0]!);
    let sent = 0;
    let failed = 0;
    let nextSample = EVERY;
    const worker = async () => {
      while (sent < NOTES) {
        sent++;
        const res = await cluster.request('POST', '/v1/nfe', { headers, body: { ...aValidNfeBody(), issuerId } });
        if (res.status !== 201 || res.body?.data?.status !== 'AUTHORIZED') failed++;
      }
    };
    const workers = Array.from({ length: CONNECTIONS }, worker);
    const sampler = (async () => {
      while (nextSample <= NOTES) {
        if (sent >= nextSample) {
          const s = await sample(cluster, observer, nextSample);
          samples.push(s);
          print(s);
          nextSample += EVERY;
        } else {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    })();
    await Promise.all([...workers, sampler]);
    const first = samples[0]!;
    const last = samples.at(-1)!;
    console.log(`failed ${failed} of ${NOTES}`);
    console.log('BENCH ' + JSON.stringify({ scenario: 'soak', notes: NOTES, failed, first, last }));
  } finally {
    await observer.stop().catch(() => undefined);
    await cluster.stop();
  }
}

await main();
