/**
 * Emission benchmark over HTTP, every part real: autocannon drives POST /v1/nfe at one gateway
 * node; auth (real API key, ENTERPRISE plan with a rate limit that never caps the run), issuer
 * (company + sandbox A1), emission with the real document pipeline (validate, rules, totals,
 * build, sign, XSD), sefaz over mutual TLS to the embedded authority simulator, and the webhook
 * dispatcher, on a fresh Postgres database with the Redis transporter.
 *
 * Topology per configuration (a fresh stack each): this process runs one node with every service
 * except emission (gateway, auth, issuer, sefaz + simulator, webhook-dispatcher, …); the emission
 * nodes are separate child processes (`server.ts` with SERVICES=emission, same env), so two nodes
 * really have two event loops. BENCH_INPROCESS=1 runs the emission nodes as brokers in this process.
 *
 * After each run it reads, from emission.documents, the number of documents and AUTHORIZED ones
 * and checks that the numbers of the series are distinct and consecutive from 1, and prints each
 * emission node's per-stage split (v1.emission.stageStats).
 *
 *   npm run bench                                    # 10 s per configuration, 20 connections
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=10 npm run bench
 *   BENCH_CONFIGS=1x1,1x50,2x1 npm run bench          # <emission nodes>x<items per note>
 */
// @ts-expect-error autocannon ships no type declarations (no @types package installed)
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startStack, testEnv, TEST_REDIS_URL, type Stack } from '../test/support/stack.js';
import { ALL_SERVICES } from '../services/index.js';
import { createPartnerWithKey } from '../test/support/identity.js';
import { aValidNfeBody, anItem, closingPayments } from '../test/support/nfe-factories.js';
import { aValidNfseBody } from '../test/support/nfse-factories.js';
import { closeAllRedis } from '../services/shared/redis.js';
import { writeFileSync } from 'node:fs';
import { companyWithA1 } from '../test/support/e2e.js';
import { Session } from 'node:inspector/promises';
import { getKnex } from '../services/shared/database.js';
import { processCpuSeconds } from './proc-cpu.js';
import { machineYardstick } from './machine.js';
import { startSpeedSampler } from './speed-sampler.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const inProcess = process.env.BENCH_INPROCESS === '1';
/** BENCH_MODEL=nfse drives POST /v1/nfse (a DPS per request; `items` is ignored) instead of NF-e. */
const nfse = process.env.BENCH_MODEL === 'nfse';
const path = nfse ? '/v1/nfse' : '/v1/nfe';
const table = nfse ? 'emission.nfse_documents' : 'emission.documents';
const configs = (process.env.BENCH_CONFIGS ?? '1x1,1x50,2x1').split(',').map((c) => {
  const [nodes, items] = c.split('x').map(Number);
  return { nodes: nodes!, items: items! };
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** BENCH_CPU_PROF=<dir>: each emission child writes a V8 CPU profile there when it stops (node --cpu-prof). */
const childProfDir = process.env.BENCH_CPU_PROF;

function bodyWith(items: number) {
  const list = Array.from({ length: items }, (_, i) => anItem({ codigo: `P${i + 1}`, descricao: `Produto ${i + 1}` }));
  return aValidNfeBody({ items: list, pagamentos: closingPayments(list) });
}

/** An emission node in its own process, with the stack's environment. */
function spawnEmissionNode(env: Record<string, string>, nodeId: string): ChildProcess {
  const prof = childProfDir ? ['--cpu-prof', `--cpu-prof-dir=${childProfDir}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: { ...process.env, ...env, SERVICES: 'emission', NODE_ID: nodeId },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!(child as any).stopping) console.error(`emission node ${nodeId} exited early (${code ?? signal})`);
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  (child as any).stopping = true;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function emissionNodeIds(stack: Stack): string[] {
  const nodes: any[] = (stack.nodes[0]!.registry.nodes as any).toArray();
  return nodes.filter((n) => n.available && (n.services ?? []).some((s: any) => s.fullName === 'v1.emission')).map((n) => n.id as string);
}

async function waitForEmissionNodes(stack: Stack, n: number, children: ChildProcess[]): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ids = emissionNodeIds(stack);
    if (ids.length >= n) {
      const api: any = stack.nodes[0]!.getLocalService('api');
      for (const r of api.routes) if (r.opts.autoAliases) api.regenerateAutoAliases(r);
      return ids;
    }
    if (children.some((c) => c.exitCode !== null)) throw new Error('an emission node exited before joining');
    if (Date.now() > deadline) throw new Error(`only ${ids.length} of ${n} emission nodes joined`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Requests autocannon gave up on may still be running: wait until no document is left open. */
async function settle(stack: Stack, issuerId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const open = await stack.knex(table).where({ issuer_id: issuerId }).whereIn('status', ['CREATED', 'TRANSMITTING']).count('* as n').first();
    if (Number(open?.n ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(emissionNodes: number, items: number) {
  const env = testEnv({ REDIS_URL: TEST_REDIS_URL, IP_RATE_LIMIT: '1000000', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error' });
  const main = ALL_SERVICES.filter((s) => s !== 'emission');
  const stack = await startStack({
    redis: true,
    env,
    nodes: [
      { services: main },
      ...(inProcess ? Array.from({ length: emissionNodes }, () => ({ services: ['emission'] })) : []),
    ],
  });
  const children: ChildProcess[] = [];
  try {
    if (!inProcess) {
      const childEnv = { ...env, DATABASE_URL: stack.config.databaseUrl! };
      for (let i = 0; i < emissionNodes; i++) children.push(spawnEmissionNode(childEnv, `${env.NAMESPACE}-emission${i + 1}`));
    }
    const nodeIds = await waitForEmissionNodes(stack, emissionNodes, children);

    const partner = await createPartnerWithKey(stack, { plan: 'ENTERPRISE' });
    await stack.nodes[0]!.call('v1.auth.setPlan', { partnerId: partner.partnerId, plan: 'ENTERPRISE', enterpriseRateLimit: 1_000_000 });
    const headers = { 'x-api-key': partner.apiKey };
    const { issuerId } = await companyWithA1(stack, headers, nfse ? { crt: 1, inscricaoMunicipal: '12345678' } : {});

    const body = JSON.stringify(nfse ? aValidNfseBody({ issuerId }) : bodyWith(items));
    // The machine's speed now, with the stack idle (bench/machine.ts).
    const machine = machineYardstick();
    // Warm-up: JIT, the XSD validator, signer cache, connection pools, on every emission node.
    await autocannon({ url: `${stack.url}${path}`, method: 'POST', connections: Math.min(connections, 4 * emissionNodes), amount: 40 * emissionNodes, body, headers: { ...headers, 'content-type': 'application/json' } });
    for (const nodeID of nodeIds) await stack.nodes[0]!.call('v1.emission.stageStats', { reset: true }, { nodeID });
    const warmedUp = Number((await stack.knex(table).where({ issuer_id: issuerId }).count('* as n').first())?.n ?? 0);

    // With BENCH_CPU_PROF, this process is profiled over the measured run only (not the set-up).
    const inspector = childProfDir ? new Session() : null;
    if (inspector) { inspector.connect(); await inspector.post('Profiler.enable'); await inspector.post('Profiler.start'); }
    // BENCH_COUNT_SQL=1: statements per schema issued by this process's services over the run (with
    // BENCH_SQL_OTHER=1 the unqualified ones by their text: BEGIN, COMMIT, nextval…)
    // (the emission children's are not seen here: test/e2e/statement-budget.test.ts counts those).
    const sqlBySchema: Record<string, number> = {};
    const countSql = (q: { sql: string }) => { const schema = /"(\w+)"\./.exec(q.sql)?.[1] ?? (process.env.BENCH_SQL_OTHER === '1' ? q.sql.slice(0, 70) : 'other'); sqlBySchema[schema] = (sqlBySchema[schema] ?? 0) + 1; };
    const serviceKnex = process.env.BENCH_COUNT_SQL === '1' ? await getKnex(stack.config) : null;
    serviceKnex?.on('query', countSql);
    const cpu0 = { main: process.cpuUsage(), children: children.map((c) => processCpuSeconds(c.pid)) };
    const measure = speed.window();
    const result = await autocannon({
      url: `${stack.url}${path}`, method: 'POST', connections, duration: seconds, body,
      headers: { ...headers, 'content-type': 'application/json' },
    });
    const during = measure();
    if (inspector) {
      const { profile } = await inspector.post('Profiler.stop');
      writeFileSync(join(childProfDir!, `bench-${emissionNodes}x${items}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
      inspector.disconnect();
    }
    const mainCpu = process.cpuUsage(cpu0.main);
    serviceKnex?.off('query', countSql);
    // CPU share of one core over the run: this process (gateway, auth, issuer, sefaz, simulator,
    // webhooks, and autocannon itself) and each emission child.
    const cpu = {
      main: Math.round(((mainCpu.user + mainCpu.system) / 1e6 / result.duration) * 100) + '%',
      emission: children.map((c, i) => Math.round(((processCpuSeconds(c.pid) - cpu0.children[i]!) / result.duration) * 100) + '%').join(' ') || 'in main',
    };
    await settle(stack, issuerId);
    // CPU per note, per process: the CPU the run used over the notes it created (requests still in
    // flight when autocannon stopped are in both). The bench process includes autocannon itself.
    const notes = Number((await stack.knex(table).where({ issuer_id: issuerId }).count('* as n').first())?.n ?? 0) - warmedUp;
    const perNote = (cpuSeconds: number) => Math.round((cpuSeconds * 1000 / Math.max(notes, 1)) * 100) / 100;
    const cpuMsPerNote = {
      bench: perNote((mainCpu.user + mainCpu.system) / 1e6),
      ...Object.fromEntries(children.map((c, i) => [`emission${i + 1}`, perNote(processCpuSeconds(c.pid) - cpu0.children[i]!)])),
    };

    const rows: { number: string; status: string }[] = nfse
      ? await stack.knex(table).where({ issuer_id: issuerId, serie: 1 }).orderBy('n_dps').select('n_dps as number', 'status')
      : await stack.knex(table).where({ issuer_id: issuerId, model: '55', series: 1 }).orderBy('number').select('number', 'status');
    const numbers = rows.map((r) => Number(r.number));
    const distinct = new Set(numbers).size === numbers.length;
    const consecutive = numbers.every((n, i) => n === i + 1);
    const stageStats = [];
    for (const nodeID of nodeIds) stageStats.push(await stack.nodes[0]!.call('v1.emission.stageStats', {}, { nodeID }));
    return {
      summary: {
        model: nfse ? 'NFSe' : '55', emissionNodes, items, mode: inProcess ? 'in-process' : 'child processes', connections, seconds,
        rps: Math.round(result.requests.average * 10) / 10, p50ms: result.latency.p50, p99ms: result.latency.p99,
        '2xx': result['2xx'], non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts,
        warmUpDocs: warmedUp, documents: rows.length, authorized: rows.filter((r) => r.status === 'AUTHORIZED').length,
        numbersOk: distinct && consecutive, maxNumber: numbers.at(-1) ?? 0, cpuMain: cpu.main, cpuEmission: cpu.emission,
        cpuMsPerNote, machine: { ...machine, duringMeasure: during },
        ...(serviceKnex ? { benchSqlPerNote: Object.fromEntries(Object.entries(sqlBySchema).map(([k, v]) => [k, Math.round((v / Math.max(notes, 1)) * 10) / 10])) } : {}),
      },
      stageStats,
    };
  } finally {
    for (const c of children) await stopChild(c);
    await stack.stop();
  }
}

/** The machine's speed through every configuration's measure (bench/speed-sampler.ts). */
const speed = startSpeedSampler();
const summaries = [];
for (const { nodes, items } of configs) {
  const { summary, stageStats } = await run(nodes, items);
  summaries.push(summary);
  console.log(`\n${nodes} emission node(s), ${items} item(s): ${JSON.stringify(summary)}`);
  for (const s of stageStats as any[]) {
    console.log(`stages on ${s.nodeID} (ms):`);
    console.table(Object.fromEntries(Object.entries<any>(s.stages).map(([k, v]) => [k, { count: v.count, p50: v.p50, p99: v.p99, mean: v.mean }])));
  }
}
console.table(summaries.map(({ cpuMsPerNote, machine, ...s }) => ({ ...s, cpuMsPerNote: JSON.stringify(cpuMsPerNote), machine: JSON.stringify(machine) })));
// One machine-readable line per scenario (issue 18).
for (const s of summaries) {
  console.log(`BENCH ${JSON.stringify({ rps: s.rps, p50: s.p50ms, p99: s.p99ms, cpuMsPerNote: s.cpuMsPerNote, errors: s.non2xx + s.errors + s.timeouts, items: s.items, mode: s.mode, model: s.model, emissionNodes: s.emissionNodes, numbersOk: s.numbersOk, authorized: s.authorized, documents: s.documents, machine: s.machine })}`);
}
speed.stop();
await closeAllRedis();
