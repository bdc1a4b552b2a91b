import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { runAdmin } from './admin-cli.js';
import { dropRedisKeys, freePort } from './local-resources.js';
import { createTestDatabase, testEnv, TEST_REDIS_URL, type HttpResult, type RequestOptions } from './stack.js';
import type { FaultSpec } from '../../services/sefaz/simulator/faults.js';

/**
 * The production layout as real processes (issue 20, "Done when"): the standalone simulator
 * (bin/simulator.ts), one gateway, two emission nodes and one "core" node with every other
 * service, each `node --import tsx server.ts` with SERVICES=… and the environment README's
 * "Scaling out" documents, over a fresh Postgres database and a private Redis namespace and prefix.
 * Unlike stack.ts, nothing of the product runs in the test's process: a kill is a real SIGKILL and
 * the survivors learn of it only the way they would in production (Moleculer heartbeats).
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type Role = 'simulator' | 'core' | 'emission-1' | 'emission-2' | 'gateway' | 'node-1' | 'node-2';

/** An empty list is every service (server.ts): the per-core layout's nodes. */
const SERVICES: Record<Exclude<Role, 'simulator'>, string> = {
  core: 'auth,issuer,sefaz,contingency-monitor,webhook-dispatcher,classification',
  'emission-1': 'emission',
  'emission-2': 'emission',
  gateway: 'api-gateway',
  'node-1': '',
  'node-2': '',
};

/**
 * `split` (default): the README's "Scaling out" roles (gateway, two emission nodes, core).
 * `per-core`: two nodes that each run every service, gateway included (issue 18, item 3: a note's
 * calls gateway → emission → issuer/sefaz stay inside one process; the Redis transporter still
 * joins the nodes, so numbering, the outbox and the monitor are shared as in the split layout).
 * `single`: the per-core layout's first node alone (issue 18: two nodes on one machine are not
 * slower than one).
 */
export type Layout = 'split' | 'per-core' | 'single';
const ROLES_OF: Record<Layout, Role[]> = {
  split: ['simulator', 'core', 'emission-1', 'emission-2', 'gateway'],
  'per-core': ['simulator', 'node-1', 'node-2'],
  single: ['simulator', 'node-1'],
};
const runsGateway = (role: Role) => role === 'gateway' || role === 'node-1' || role === 'node-2';

/** Printed by server.ts once its broker started (LOG_LEVEL info), and by bin/simulator.ts once it listens. */
const READY: Record<Role, RegExp> = {
  simulator: /SEFAZ and Sefin Nacional simulator at/,
  core: /node \S+ up:/, 'emission-1': /node \S+ up:/, 'emission-2': /node \S+ up:/, gateway: /node \S+ up:/,
  'node-1': /node \S+ up:/, 'node-2': /node \S+ up:/,
};

/** One authenticated route of each service behind the gateway. */
const ROUTES_BY_SERVICE = ['/v1/nfe', '/v1/companies', '/v1/auth/me', '/v1/webhooks/config'];

/** Each process keeps this many of its last output lines, for the message of a failed start. */
const LOG_TAIL = 200;
/** Generous for a loaded 2-core machine: tsx compiles, services migrate their schemas, nodes meet. */
const START_TIMEOUT_MS = 60_000;

interface Running { child: ChildProcess; tail: string[]; exited: Promise<number | null> }

export interface Cluster {
  /** The (first) gateway's base URL; its port stays the same across restarts. */
  readonly url: string;
  /** Every gateway's base URL (two in the per-core layout). */
  readonly urls: readonly string[];
  /** The roles this layout runs. */
  readonly roles: readonly Role[];
  /** Plain-HTTP admin of the simulator (fault injection). */
  readonly simulatorAdminUrl: string;
  /** The simulator's CA and sandbox CA: A1 certificates issued from here are trusted by it. */
  readonly config: { readonly sefaz: { readonly simulatorDir: string } };
  /** The cluster's database, for assertions. */
  readonly knex: Knex;
  /** The environment every process of the cluster shares (secrets, URLs, namespace). */
  readonly env: Readonly<Record<string, string>>;
  request<T = any>(method: string, path: string, opts?: Omit<RequestOptions, 'node'>): Promise<HttpResult<T>>;
  /** SIGKILL: no handler of the process runs; resolves once it is gone. */
  kill(role: Role): Promise<void>;
  /** Starts the role again (a new node id, as a restarted process gets) and waits until it is ready. */
  start(role: Role): Promise<void>;
  addFault(spec: FaultSpec): Promise<void>;
  /** The simulator's active faults (a fault with `times` leaves the list once its last use is taken). */
  faults(): Promise<FaultSpec[]>;
  clearFaults(): Promise<void>;
  /** The last output lines of a role's process (diagnostics). */
  logs(role: Role): string;
  /** The process id of a running role (memory soak: /proc/<pid>/status). */
  pid(role: Role): number | undefined;
  stop(): Promise<void>;
}


async function until(probe: () => Promise<boolean>, what: string, timeoutMs: number, proc?: Running): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (proc && !isRunning(proc)) throw new Error(`${what}: the process exited (${proc.child.exitCode})\n${proc.tail.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${proc ? `\n${proc.tail.join('\n')}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Neither exited nor killed by a signal (a SIGKILLed child has exitCode null and signalCode set). */
const isRunning = (p: Running) => p.child.exitCode === null && p.child.signalCode === null;

/** Every child still alive when the test process exits is killed with it. */
const alive = new Set<ChildProcess>();
process.once('exit', () => { for (const c of alive) c.kill('SIGKILL'); });
/**
 * And if the test process is killed before its exit handler can run (ava's timeout, a signal), each
 * child sees its stdin pipe close and exits: no cluster outlives its test on the shared machine.
 * Only the main thread: worker threads (certificates, piscina) inherit the flag and have no stdin.
 */
const EXIT_WITH_PARENT = 'data:text/javascript,import{isMainThread}from"node:worker_threads";if(isMainThread)process.stdin.on("end",()=>process.exit(1)).resume()';

/** What a fault test changes in the layout (each optional; the default is the plain cluster). */
export interface ClusterOptions {
  /** Environment of one role's processes only (e.g. the availability monitor's timer on the core). */
  roleEnv?: Partial<Record<Role, Record<string, string>>>;
  /** The Redis of every node (a private server, test/support/private-redis.ts); default the shared one under a private prefix. */
  redisUrl?: string;
  /** Given the cluster's database URL, the one its processes connect to (a test/support/pg-proxy.ts); `knex` stays direct. */
  databaseUrlVia?: (url: string) => Promise<string>;
  /** Which processes run which services (default `split`). */
  layout?: Layout;
  /** Extra node options of every process (the bench's `--cpu-prof`). */
  nodeArgs?: string[];
  /**
   * LOG_LEVEL of the product's processes (default info). Above info a node does not print its
   * ready line, so only the per-core and single layouts, whose every node serves HTTP, are ready by their /health.
   */
  logLevel?: 'info' | 'warn' | 'error';
}

export async function startCluster(extraEnv: Record<string, string> = {}, options: ClusterOptions = {}): Promise<Cluster> {
  const db = await createTestDatabase();
  const layout = options.layout ?? 'split';
  const quiet = (options.logLevel ?? 'info') !== 'info';
  if (quiet && layout === 'split') throw new Error('a log level above info needs the per-core or single layout (nodes ready by /health)');
  const roles = ROLES_OF[layout];
  const [gatewayPort, secondGatewayPort, simulatorPort, simulatorAdminPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const portOf = (role: Role) => (role === 'node-2' ? secondGatewayPort : runsGateway(role) ? gatewayPort : 0);
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  const base = testEnv({
    DATABASE_URL: options.databaseUrlVia ? await options.databaseUrlVia(db.url) : db.url,
    REDIS_URL: redisUrl,
    // The ready lines are info; pino writes JSON lines to stdout, kept only as a short tail.
    LOG_LEVEL: 'info',
    ...extraEnv,
  });
  const simulatorDir = join(base.VAR_DIR!, 'simulator');
  const env: Record<string, string> = {
    ...base,
    SIMULATOR_DIR: simulatorDir,
    SIMULATOR_EMBEDDED: '0',
    SIMULATOR_URL: `https://127.0.0.1:${simulatorPort}`,
    SIMULATOR_CA_FILE: join(simulatorDir, 'ca.pem'),
    SIMULATOR_PORT: String(simulatorPort),
    SIMULATOR_ADMIN_PORT: String(simulatorAdminPort),
    SIMULATOR_HOST: '127.0.0.1',
  };
  const url = `http://127.0.0.1:${gatewayPort}`;
  const urls = layout === 'per-core' ? [url, `http://127.0.0.1:${secondGatewayPort}`] : [url];
  const simulatorAdminUrl = `http://127.0.0.1:${simulatorAdminPort}`;
  const procs = new Map<Role, Running>();
  let generation = 0;
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 4 } });

  function spawnRole(role: Role): Running {
    const script = role === 'simulator' ? 'bin/simulator.ts' : 'server.ts';
    // The simulator is the authority, not the product: a database outage of the product is not its own.
    const roleEnv = role === 'simulator' ? { DATABASE_URL: db.url, ...options.roleEnv?.[role] } : {
      SERVICES: SERVICES[role],
      NODE_ID: `${env.NAMESPACE}-${role}-${generation++}`,
      PORT: String(portOf(role)),
      ...(quiet ? { LOG_LEVEL: options.logLevel! } : {}),
      ...options.roleEnv?.[role],
    };
    const { REDIS_URL: _r, DATABASE_URL: _d, ...inherited } = process.env;
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', EXIT_WITH_PARENT, '--import', 'tsx', script], { cwd: ROOT, env: { ...inherited, ...env, ...roleEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    alive.add(child);
    const tail: string[] = [];
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) tail.push(line);
      if (tail.length > LOG_TAIL) tail.splice(0, tail.length - LOG_TAIL);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => { alive.delete(child); done(code); }));
    return { child, tail, exited };
  }

  async function start(role: Role): Promise<void> {
    const previous = procs.get(role);
    if (previous && isRunning(previous)) throw new Error(`${role} is already running`);
    const proc = spawnRole(role);
    procs.set(role, proc);
    if (!(quiet && runsGateway(role))) await until(async () => proc.tail.some((l) => READY[role].test(l)), `${role} to start`, START_TIMEOUT_MS, proc);
    if (role === 'simulator') await until(async () => (await fetch(`${simulatorAdminUrl}/__admin/faults`)).ok, 'the simulator admin', START_TIMEOUT_MS, proc);
    if (runsGateway(role)) {
      const base = `http://127.0.0.1:${portOf(role)}`;
      await until(async () => (await fetch(`${base}/health`)).status === 200, `the ${role} /health`, START_TIMEOUT_MS, proc);
      // Its routes come from the services it discovers: until then a route is 404, after it 401 without credentials.
      await until(async () => (await Promise.all(ROUTES_BY_SERVICE.map((path) => fetch(base + path)))).every((r) => r.status === 401), `the ${role} routes`, START_TIMEOUT_MS, proc);
    }
  }

  async function kill(role: Role): Promise<void> {
    const proc = procs.get(role);
    if (!proc || !isRunning(proc)) return;
    proc.child.kill('SIGKILL');
    await proc.exited;
  }

  const cluster: Cluster = {
    url,
    urls,
    roles,
    simulatorAdminUrl,
    config: { sefaz: { simulatorDir } },
    knex,
    env,
    async request(method, path, ro = {}) {
      const headers: Record<string, string> = { ...(ro.headers ?? {}) };
      let body: string | undefined = ro.rawBody;
      if (ro.body !== undefined) { body = JSON.stringify(ro.body); headers['content-type'] ??= 'application/json'; }
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let parsed: any = text;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON: keep text */ }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    kill,
    start,
    async addFault(spec) {
      const res = await fetch(`${simulatorAdminUrl}/__admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
      if (res.status !== 201) throw new Error(`fault: ${res.status} ${await res.text()}`);
    },
    async faults() {
      const res = await fetch(`${simulatorAdminUrl}/__admin/faults`);
      if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { faults: FaultSpec[] }).faults;
    },
    async clearFaults() {
      const res = await fetch(`${simulatorAdminUrl}/__admin/faults`, { method: 'DELETE' });
      if (!res.ok) throw new Error(`clear faults: ${res.status} ${await res.text()}`);
    },
    logs: (role) => procs.get(role)?.tail.join('\n') ?? '',
    pid: (role) => { const p = procs.get(role); return p && isRunning(p) ? p.child.pid : undefined; },
    async stop() {
      // Graceful first (brokers say goodbye, pools close), then whatever is left is killed.
      const running = [...procs.values()].filter(isRunning);
      for (const p of running) p.child.kill('SIGTERM');
      await Promise.all(running.map((p) => Promise.race([p.exited, new Promise((r) => setTimeout(r, 10_000))])));
      for (const p of running) if (isRunning(p)) { p.child.kill('SIGKILL'); await p.exited; }
      await knex.destroy();
      await db.drop().catch(() => undefined);
      await dropRedisKeys(redisUrl, env.REDIS_PREFIX!).catch(() => undefined);
      rmSync(env.VAR_DIR!, { recursive: true, force: true });
    },
  };

  try {
    // The simulator first: it writes the CA the sefaz client trusts. Then the node that migrates the
    // schemas of auth, issuer and sefaz (core, or the first full node), then the rest at once.
    const [simulator, first, ...rest] = roles;
    await start(simulator!);
    await start(first!);
    await Promise.all(rest.map(start));
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}


/**
 * A partner with a live API key, made as an operator makes one: `npm run admin -- create-partner`
 * then `issue-key`, each its own process on the cluster's database (no transporter: the command's
 * own auth service writes the rows, which the cluster's auth node then reads).
 */
export async function partnerWithKey(cluster: Cluster, plan = 'SCALE', enterpriseRateLimit?: number): Promise<{ partnerId: string; apiKey: string }> {
  const owner = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const limit = enterpriseRateLimit === undefined ? [] : ['--enterprise-rate-limit', String(enterpriseRateLimit)];
  const partner = await admin(cluster, ['create-partner', '--name', `Parceiro ${owner}`, '--owner-email', owner, '--owner-password', 'Senha-de-teste-123', '--plan', plan, '--subscription', 'ACTIVE', ...limit]);
  const key = await admin(cluster, ['issue-key', '--partner', partner.partnerId, '--kind', 'live']);
  return { partnerId: partner.partnerId, apiKey: key.apiKey };
}

async function admin(cluster: Cluster, args: string[]): Promise<any> {
  const { REDIS_URL: _r, LOG_LEVEL: _l, ...inherited } = process.env;
  const env = { ...inherited, ...cluster.env, REDIS_URL: '', LOG_LEVEL: 'error', NAMESPACE: `admin${randomBytes(4).toString('hex')}` };
  const run = await runAdmin(env, args);
  if (run.code !== 0) throw new Error(`admin ${args[0]}: exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
