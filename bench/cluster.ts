/**
 * Issue 18's targets on real processes: the standalone simulator and the product's nodes, each
 * `node --import tsx …` of its own (test/support/cluster.ts), Postgres with fsync on and the Redis
 * transporter, driven from this process (autocannon, or open-loop.ts). Per scenario it prints the rate, the
 * latency, the CPU per note of every process (read from /proc: the simulator, each node, the sum
 * of Postgres's processes, Redis, and this process, the load driver only) and checks that every
 * note is AUTHORIZED and the series numbered 1..N with no gap (a fresh issuer per scenario), and
 * the kernel's share of each process's CPU (system time over all), and how fast the machine was
 * before and during the measure (bench/machine.ts, bench/speed-sampler.ts: this VM's speed swings).
 *
 * Each scenario is measured at steady state: first 60 notes per node (caches, pools, validators),
 * then BENCH_WARMUP_SECONDS (default 10) of the same load unmeasured, so that V8 has optimized the
 * hot code as it has on a server that has run for a while (with the 60 notes only, its optimizing
 * compiler was still at work through a 15 s measure: `peak-nfe-1` measured 8.92 ms of product CPU
 * and 3.1 of the simulator's per note that way, against 7.4-7.8 and 2.3-2.5 after the warm-up).
 *
 *   npm run bench:cluster                                        # per-core layout, every scenario
 *   BENCH_LAYOUT=split npm run bench:cluster                     # the README's gateway/emission/core roles
 *   BENCH_ISSUERS=per-node npm run bench:cluster                 # each node its own issuer (no series numbered by two nodes)
 *   BENCH_LOADED=first npm run bench:cluster                     # per-core, only the first node sent load (the second idle in the cluster)
 *   BENCH_LAYOUT=single npm run bench:cluster                    # one node with every service (against per-core: two nodes are not slower)
 *   BENCH_SCENARIOS=peak-nfe-1,open-nfe-1 BENCH_SECONDS=10 npm run bench:cluster
 *   BENCH_CPU_PROF=/tmp/prof BENCH_SCENARIOS=peak-nfe-1 npm run bench:cluster   # a .cpuprofile per process
 *   BENCH_NODE_ARGS='--perf-basic-prof' npm run bench:cluster    # more arguments for every process's node (perf's JIT map, V8's --log-deopt…)
 *   BENCH_LOG_LEVEL=warn npm run bench:cluster                   # nodes without their info lines (per-core or single)
 *   BENCH_IDEMPOTENCY=1 npm run bench:cluster                    # every request with an Idempotency-Key of its own
 *   BENCH_IDLE_SECONDS=20 BENCH_SCENARIOS= npm run bench:cluster  # the CPU per second of an idle cluster only
 *   BENCH_LATENCY_DUMP=/tmp/lat.txt BENCH_SCENARIOS=open-nfe-1 npm run bench:cluster   # every answer's start and latency
 *   BENCH_WARMUP_SECONDS=0 npm run bench:cluster                 # measured from a cold start, as before 2026-11-26 (eighth)
 *
 * Scenarios: `peak-<model>-<items>` is a closed loop of BENCH_CONNECTIONS (default 10) as fast as
 * the product answers (autocannon); `open-<model>-<items>` starts BENCH_RATE notes per second
 * (default 400) at evenly spaced times whatever the answers do (open-loop.ts), so its latency is
 * the one a steady arrival rate sees, measured from each request's scheduled start. Models: nfe,
 * nfce, nfse.
 */
// @ts-expect-error autocannon ships no type declarations (no @types package installed)
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { startCluster, partnerWithKey, type Cluster, type Layout, type Role } from '../test/support/cluster.js';
import { companyWithA1, SANDBOX_CSC } from '../test/support/e2e.js';
import { aCompactItem, aValidNfceBody, aValidNfeBody, anItem, closingPayments, COMPACT_ITEMS_FROM } from '../test/support/nfe-factories.js';
import { aValidNfseBody } from '../test/support/nfse-factories.js';
import { EVENT_LOOP_SAMPLE_MS } from '../services/shared/metrics.js';
import { processCpuSeconds, processSyscalls, processSystemSeconds } from './proc-cpu.js';
import { openLoop, type OpenLoopResult } from './open-loop.js';
import { machineYardstick } from './machine.js';
import { startSpeedSampler } from './speed-sampler.js';

const layout = (process.env.BENCH_LAYOUT ?? 'per-core') as Layout;
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rate = Number(process.env.BENCH_RATE ?? 400);
/** BENCH_IDEMPOTENCY=1: every request carries an Idempotency-Key of its own, as a careful client sends. */
const idempotency = process.env.BENCH_IDEMPOTENCY === '1';
/** BENCH_LOADED=first: only the first node's gateway is sent load (the others idle but in the cluster: what an idle node costs). */
const firstNodeOnly = process.env.BENCH_LOADED === 'first';
/** BENCH_ISSUERS=per-node: each node emits for an issuer of its own (default: one issuer, whose one series every node numbers). */
const issuerPerNode = process.env.BENCH_ISSUERS === 'per-node';
const scenarios = (process.env.BENCH_SCENARIOS ?? 'peak-nfe-1,open-nfe-1,peak-nfe-50,peak-nfce-1,peak-nfse-1').split(',').filter(Boolean);

type Model = 'nfe' | 'nfce' | 'nfse';
interface Scenario { name: string; kind: 'peak' | 'open'; model: Model; items: number }

function parse(name: string): Scenario {
  const m = /^(peak|open)-(nfe|nfce|nfse)-(\d+)$/.exec(name);
  if (!m) throw new Error(`unknown scenario ${name}: peak|open-nfe|nfce|nfse-<items>`);
  return { name, kind: m[1] as Scenario['kind'], model: m[2] as Model, items: Number(m[3]) };
}

function body(s: Scenario, issuerId: string): unknown {
  if (s.model === 'nfse') return aValidNfseBody({ issuerId });
  const item = s.items > COMPACT_ITEMS_FROM ? aCompactItem : anItem;
  const items = Array.from({ length: s.items }, (_, i) => item({ codigo: `P${i + 1}`, descricao: `Produto ${i + 1}` }));
  const base = { issuerId, items, pagamentos: closingPayments(items) };
  return s.model === 'nfce' ? aValidNfceBody(base) : aValidNfeBody(base);
}

/** Every process whose command name is `comm` (Postgres forks one per connection). */
function pidsNamed(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try { if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry)); } catch { /* gone */ }
  }
  return pids;
}

/** The backends serving `database` (Postgres names it in each backend's title: `postgres: … user database host(port) state`). */
function backendsOf(pids: number[], database: string): number[] {
  return pids.filter((pid) => {
    try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(' ').includes(database); } catch { return false; }
  });
}

const databaseOf = (cluster: Cluster) => new URL(cluster.env.DATABASE_URL!).pathname.slice(1);
const total = (values: number[]) => values.filter(Number.isFinite).reduce((a, b) => a + b, 0);

/** A reading of each group of processes: every process's figure by pid. */
type Reading = Record<string, Map<number, number>>;
const byPid = (pids: number[], read: (pid: number) => number) => new Map(pids.map((pid) => [pid, read(pid)]));

/** `read` (proc-cpu.ts) of every role's process, and of each backend of this cluster's own database (`postgresBackends`). */
function ofCluster(cluster: Cluster, read: (pid: number) => number): Reading {
  const roles = Object.fromEntries(cluster.roles.map((r) => [r, byPid([cluster.pid(r as Role) ?? -1], read)]));
  return { ...roles, postgresBackends: byPid(backendsOf(pidsNamed('postgres'), databaseOf(cluster)), read) };
}

/**
 * CPU seconds per process: the cluster's roles, Postgres (all its processes, and the backends of
 * this cluster's database alone, which stay apart when two clusters share the server: the
 * simultaneous A/B of bench/README.md), Redis and this process.
 */
function cpuSnapshot(cluster: Cluster): Reading {
  const self = process.cpuUsage();
  return {
    ...ofCluster(cluster, processCpuSeconds),
    postgres: byPid(pidsNamed('postgres'), processCpuSeconds),
    redis: byPid(pidsNamed('redis-server'), processCpuSeconds),
    autocannon: new Map([[process.pid, (self.user + self.system) / 1e6]]),
  };
}

/**
 * What each group used between two readings, summed process by process. A process that started
 * meanwhile counts whole; one that exited meanwhile (a pool's idle connection closed, its backend
 * gone) takes its last share with it, so a group's figure is a floor. Summing each group first
 * and subtracting the sums would take that process's whole life off the group instead: the NFS-e
 * row of 2026-11-27 (tenth) read 0.05 ms of Postgres per note and a kernel share of 341 % that way.
 */
function used(before: Reading, after: Reading): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([group, pids]) => [group, total([...pids].map(([pid, v]) => v - (before[group]?.get(pid) ?? 0)))]));
}

/** The kernel's share of each process's CPU over the measure, in % (system over user + system). */
function kernelShare(cpu: Record<string, number>, system: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(system).map((k) => [k, cpu[k]! > 0 ? Math.round(100 * system[k]! / cpu[k]!) : Number.NaN]));
}

/** Each value × scale / per, rounded to `decimals`. */
function rates(values: Record<string, number>, per: number, scale: number, decimals: number): Record<string, number> {
  const unit = 10 ** decimals;
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Math.round((v * scale / per) * unit) / unit]));
}

function cpuMsPerNote(cpu: Record<string, number>, notes: number, cluster: Cluster) {
  const out = rates(cpu, Math.max(notes, 1), 1000, 2);
  out.product = Math.round(cluster.roles.filter((r) => r !== 'simulator').reduce((a, r) => a + out[r]!, 0) * 100) / 100;
  return out;
}

const TABLE: Record<Model, { table: string; number: string; where: (issuerId: string) => Record<string, unknown> }> = {
  nfe: { table: 'emission.documents', number: 'number', where: (issuerId) => ({ issuer_id: issuerId, model: '55', series: 1 }) },
  nfce: { table: 'emission.documents', number: 'number', where: (issuerId) => ({ issuer_id: issuerId, model: '65', series: 1 }) },
  nfse: { table: 'emission.nfse_documents', number: 'n_dps', where: (issuerId) => ({ issuer_id: issuerId, serie: 1 }) },
};

async function documents(cluster: Cluster, s: Scenario, issuerId: string) {
  const t = TABLE[s.model];
  return cluster.knex(t.table).where(t.where(issuerId)).orderBy(t.number).select(`${t.number} as number`, 'status', 'motivo') as Promise<{ number: string; status: string; motivo: string | null }[]>;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** A closed loop's figures as the open loop reports them. */
function fromAutocannon(result: any): OpenLoopResult {
  // autocannon keeps no bodies: its errors are named by status alone.
  const errorsBy: Record<string, number> = {};
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {}) as [string, { count: number }][]) if (!/^2/.test(status)) errorsBy[status] = stat.count;
  if (result.errors + result.timeouts > 0) errorsBy['no answer'] = result.errors + result.timeouts;
  return { rps: Math.round(result.requests.average * 10) / 10, p50: result.latency.p50, p99: result.latency.p99, sent: result.requests.sent, errors: result.non2xx + result.errors + result.timeouts, errorsBy };
}

/**
 * The emission path's stages (services/emission/stage-timer.ts) as /metrics sums them, every node's
 * series added: { stage: [seconds, count] }. Two readings' difference gives each stage's mean
 * over the measure, which tells where a note's latency goes (waits included), where the CPU
 * figures tell only where its work goes.
 */
async function stageSums(cluster: Cluster): Promise<Map<string, [number, number]>> {
  const text = await (await fetch(`${cluster.urls[0]}/metrics`)).text();
  const sums = new Map<string, [number, number]>();
  const names: Record<string, string> = { number_lock_wait: 'lock-wait', authority_round_trip: 'round-trip' };
  for (const m of text.matchAll(/^fiscal_(emission_stage_duration|emission_number_lock_wait|authority_round_trip)_seconds_(sum|count)\{([^}]*)\} (\S+)$/gm)) {
    const metric = m[1]!.replace(/^emission_/, '');
    const stage = names[metric] ?? /stage="([^"]+)"/.exec(m[3]!)?.[1] ?? '?';
    const entry = sums.get(stage) ?? [0, 0];
    entry[m[2] === 'sum' ? 0 : 1] += Number(m[4]);
    sums.set(stage, entry);
  }
  return sums;
}

/**
 * Each node's event-loop lag in ms (p50, p99, max) since the previous reading: prom-client samples
 * it (services/shared/metrics.ts) and resets its histogram at every collection, so a reading just
 * before the measure and one as it ends give the measure's own. One gateway's /metrics carries
 * every node's series (labelled `node`) and collects them all, so it is read once: reading a second
 * gateway right after would find every histogram just reset. Node's monitor records each sampling
 * interval whole, so the interval is taken off. How long a request waits behind work already on the
 * loop: what one tenant's burst costs another's answers.
 */
async function eventLoopLag(cluster: Cluster): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  const text = await (await fetch(`${cluster.urls[0]}/metrics`)).text();
  for (const m of text.matchAll(/^fiscal_nodejs_eventloop_lag_(p50|p99|max)_seconds\{[^}]*node="[^"-]+-([^"]+)-\d+"[^}]*\} (\S+)$/gm)) {
    (out[m[2]!] ??= {})[m[1]!] = Math.round((Number(m[3]) * 1e3 - EVENT_LOOP_SAMPLE_MS) * 10) / 10;
  }
  return out;
}

/**
 * Transactions committed and rolled back in the cluster's database so far (pg_stat_database; every
 * statement outside a transaction counts as one). The statistics collector reports them up to
 * half a second late: settle() and the stage reading come first.
 */
async function transactions(cluster: Cluster): Promise<number> {
  await new Promise((r) => setTimeout(r, 600));
  const { rows } = await cluster.knex.raw('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()');
  return Number(rows[0].n);
}

/** Mean ms of each stage between two readings. */
function stageMeans(before: Map<string, [number, number]>, after: Map<string, [number, number]>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [stage, [s, n]] of after) {
    const [s0, n0] = before.get(stage) ?? [0, 0];
    if (n > n0) out[stage] = Math.round(((s - s0) / (n - n0)) * 1e5) / 100;
  }
  return out;
}

/** Requests autocannon gave up on may still be running: wait until no document is left open. */
async function settle(cluster: Cluster, s: Scenario, issuerId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!(await documents(cluster, s, issuerId)).some((d) => d.status === 'CREATED' || d.status === 'TRANSMITTING')) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The load of one issuer: its body, sent to `urls`. */
interface Load { issuerId: string; urls: string[]; body: string }

/** Several loads at once for `duration` seconds, each with its share of the connections (or of the rate), as one result: rates summed, latencies the worst load's. */
async function drive(loads: Load[], headers: Record<string, string>, open: boolean, duration: number): Promise<OpenLoopResult> {
  const withKey = idempotency ? () => ({ 'idempotency-key': randomUUID() }) : undefined;
  const results: OpenLoopResult[] = await Promise.all(loads.map((l) => open
    // Open loop: evenly spaced arrivals over as many connections as answers pending (open-loop.ts).
    ? openLoop({ urls: l.urls, rate: rate / loads.length, seconds: duration, method: 'POST', headers, body: l.body, ...(withKey ? { headersFor: withKey } : {}) })
    : autocannon({
      url: l.urls, method: 'POST', body: l.body, headers, duration, connections: Math.max(1, Math.round(connections / loads.length)),
      ...(withKey ? { requests: [{ setupRequest: (r: { headers: Record<string, string> }) => ({ ...r, headers: { ...r.headers, ...withKey() } }) }] } : {}),
    }).then(fromAutocannon)));
  const errorsBy: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.errorsBy)) errorsBy[k] = (errorsBy[k] ?? 0) + n;
  const sum = (f: (r: OpenLoopResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return { rps: Math.round(sum((r) => r.rps) * 10) / 10, p50: Math.max(...results.map((r) => r.p50)), p99: Math.max(...results.map((r) => r.p99)), sent: sum((r) => r.sent), errors: sum((r) => r.errors), errorsBy };
}

async function run(cluster: Cluster, headers: Record<string, string>, s: Scenario) {
  const issuer = s.model === 'nfse' ? { crt: 1, inscricaoMunicipal: '12345678' } : s.model === 'nfce' ? SANDBOX_CSC : {};
  const path = `/v1/${s.model}`;
  const urls = cluster.urls.slice(0, firstNodeOnly ? 1 : undefined).map((u) => u + path);
  // One issuer for every node (its one series numbered by all of them), or one per node.
  const loads: Load[] = [];
  for (const group of issuerPerNode ? urls.map((u) => [u]) : [urls]) {
    const { issuerId } = await companyWithA1(cluster, headers, issuer);
    loads.push({ issuerId, urls: group, body: JSON.stringify(body(s, issuerId)) });
  }
  const requestHeaders = { ...headers, 'content-type': 'application/json' };
  // The machine's speed now, with the cluster idle (bench/machine.ts).
  const machine = machineYardstick();
  // Warm-up on every node: JIT, the XSD validators, the signer and certificate caches, pools.
  await Promise.all(loads.map((l) => autocannon({ url: l.urls, method: 'POST', body: l.body, headers: requestHeaders, connections: 2 * l.urls.length, amount: 60 * l.urls.length })));
  // Then the scenario's own load, unmeasured, until the optimizing compiler has done its work (see the top).
  // An open scenario warms up open too: its arrivals open more connections (to the gateway and,
  // from the node, to the authority) than a closed loop of 10, and their handshakes are a transient.
  if (warmupSeconds > 0) await drive(loads, requestHeaders, s.kind === 'open', warmupSeconds);
  for (const l of loads) await settle(cluster, s, l.issuerId);
  const warmed = (await Promise.all(loads.map((l) => documents(cluster, s, l.issuerId)))).reduce((a, rows) => a + rows.length, 0);

  const stagesBefore = await stageSums(cluster);
  await eventLoopLag(cluster);
  const transactionsBefore = await transactions(cluster);
  const before = cpuSnapshot(cluster);
  const syscallsBefore = ofCluster(cluster, processSyscalls);
  const systemBefore = ofCluster(cluster, processSystemSeconds);
  const open = s.kind === 'open';
  const measure = speed.window();
  const result = await drive(loads, requestHeaders, open, seconds);
  const during = measure();
  const lag = await eventLoopLag(cluster);
  for (const l of loads) await settle(cluster, s, l.issuerId);
  const after = cpuSnapshot(cluster);
  const syscallsAfter = ofCluster(cluster, processSyscalls);
  const systemAfter = ofCluster(cluster, processSystemSeconds);
  const stages = stageMeans(stagesBefore, await stageSums(cluster));
  const transactionsDone = (await transactions(cluster)) - transactionsBefore;
  const cpu = used(before, after);
  const series = await Promise.all(loads.map((l) => documents(cluster, s, l.issuerId)));
  const rows = series.flat();
  const notes = rows.length - warmed;
  return {
    scenario: s.name, layout, ...(issuerPerNode ? { issuers: 'per-node' } : {}), logLevel, ...(idempotency ? { idempotency } : {}), rps: result.rps, p50: result.p50, p99: result.p99,
    errors: result.errors, ...(result.errorsBy && result.errors ? { errorsBy: result.errorsBy } : {}), notes, authorized: rows.filter((r) => r.status === 'AUTHORIZED').length,
    documents: rows.length, numbersOk: series.every((one) => one.every((r, i) => Number(r.number) === i + 1)),
    // The notes that did not end AUTHORIZED, by status and motivo (a timeout's contingency, say).
    ...(rows.some((r) => r.status !== 'AUTHORIZED') ? { others: countBy(rows.filter((r) => r.status !== 'AUTHORIZED'), (r) => `${r.status}: ${r.motivo ?? ''}`) } : {}),
    cpuMsPerNote: cpuMsPerNote(cpu, notes, cluster),
    syscallsPerNote: rates(used(syscallsBefore, syscallsAfter), Math.max(notes, 1), 1, 1),
    kernelPercent: kernelShare(cpu, used(systemBefore, systemAfter)),
    stageMeanMs: stages,
    eventLoopLagMs: lag,
    transactionsPerNote: Math.round((transactionsDone / Math.max(notes, 1)) * 100) / 100,
    ...(open ? { targetRate: rate } : { connections }), warmupSeconds, machine: { ...machine, duringMeasure: during },
  };
}

/** BENCH_CPU_PROF=<dir>: every process of the cluster writes a V8 CPU profile there when it stops. */
const profDir = process.env.BENCH_CPU_PROF;
/** BENCH_NODE_ARGS='--flag …': more arguments for every process's `node` (V8's `--log-deopt --logfile=…`, say). */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** BENCH_LOG_LEVEL=warn|error (per-core or single): the nodes without their info lines (one access line per request, one per authority answer). */
const logLevel = (process.env.BENCH_LOG_LEVEL ?? 'info') as 'info' | 'warn' | 'error';
/**
 * BENCH_IDLE_SECONDS=<n>: first, the cluster left alone for n seconds (after a 10 s settle): the CPU
 * every process uses per second with nothing sent (polls, heartbeats, timers, the runtime's own
 * threads). At low rates that is part of what a note costs.
 */
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 0);

async function idle(cluster: Cluster) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(10_000);
  const before = cpuSnapshot(cluster);
  await sleep(idleSeconds * 1000);
  const after = cpuSnapshot(cluster);
  const { autocannon: _driver, ...perSecond } = rates(used(before, after), idleSeconds, 1000, 1);
  console.log(`idle: CPU ms per second ${JSON.stringify(perSecond)}`);
  console.log(`BENCH ${JSON.stringify({ scenario: 'idle', seconds: idleSeconds, cpuMsPerSecond: perSecond, mode: `cluster ${layout}` })}`);
}

/** The machine's speed through every scenario's measure (bench/speed-sampler.ts). */
const speed = startSpeedSampler();
const cluster = await startCluster({ EMISSION_NUMBERING_TIMEOUT_MS: '60000' }, { layout, logLevel, nodeArgs: [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), ...nodeArgs] });
try {
  const { apiKey } = await partnerWithKey(cluster, 'ENTERPRISE', 1_000_000);
  const headers = { 'x-api-key': apiKey };
  if (idleSeconds > 0) await idle(cluster);
  const results = [];
  for (const name of scenarios) {
    const r = await run(cluster, headers, parse(name));
    results.push(r);
    console.log(`${r.scenario}: ${r.rps} notes/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors${r.errorsBy ? ` ${JSON.stringify(r.errorsBy)}` : ''}, ${r.authorized}/${r.documents} AUTHORIZED, numbers ${r.numbersOk ? '1..N' : 'NOT CONSECUTIVE'}${r.others ? ` (others: ${JSON.stringify(r.others)})` : ''}; CPU ms/note ${JSON.stringify(r.cpuMsPerNote)}; system calls/note ${JSON.stringify(r.syscallsPerNote)}; kernel % of CPU ${JSON.stringify(r.kernelPercent)}; stage means ms ${JSON.stringify(r.stageMeanMs)}; event-loop lag ms ${JSON.stringify(r.eventLoopLagMs)}; transactions/note ${r.transactionsPerNote}; machine ${JSON.stringify(r.machine)}`);
  }
  console.table(results.map(({ cpuMsPerNote, syscallsPerNote: _calls, kernelPercent: _kernel, stageMeanMs: _stages, eventLoopLagMs: _lag, ...r }) => ({ ...r, productCpu: cpuMsPerNote.product, simulatorCpu: cpuMsPerNote.simulator, postgresCpu: cpuMsPerNote.postgres })));
  for (const r of results) console.log(`BENCH ${JSON.stringify({ ...r, mode: `cluster ${layout}`, items: Number(r.scenario.split('-')[2]) })}`);
} finally {
  speed.stop();
  await cluster.stop();
}
