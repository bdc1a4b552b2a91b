import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import type { ServiceBroker, ServiceSchema } from 'moleculer';
import type { Knex } from 'knex';
import { loadConfig, type AppConfig } from '../../config.js';
import { createNode } from '../../services/broker.js';
import { ALL_SERVICES } from '../../services/index.js';
import { closeKnex, getKnex } from '../../services/shared/database.js';
import { closeAllRedis } from '../../services/shared/redis.js';
import type { Clock } from '../../services/shared/clock.js';

/**
 * Starts real nodes for an integration test: a fresh Postgres database on the local server
 * (127.0.0.1:5432, database `test` as the admin connection) or a fresh PGlite directory, optional
 * Redis (transporter, rate limits, streams) under a unique namespace, and the gateway on a free port.
 * Every test file gets its own database, so files run in parallel without seeing each other.
 */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface NodeSpec {
  /** Product services this node runs (exactly these; ALL_SERVICES for everything). */
  services: string[];
  /** Test-only services added to this node. */
  extra?: ServiceSchema[];
  clock?: Clock;
  env?: Record<string, string>;
  /** Capture this node's log lines (see captureLogs). */
  logDestination?: NodeJS.WritableStream;
}

export interface StackOptions {
  /** One node per entry; default: one node with every product service. */
  nodes?: NodeSpec[];
  redis?: boolean;
  pglite?: boolean;
  env?: Record<string, string>;
  clock?: Clock;
  /** The connection string the nodes use for the fresh database (say, through test/support/pg-proxy.ts). */
  databaseUrlVia?: (url: string) => Promise<string>;
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Index of the gateway node to use (multi-node stacks). */
  node?: number;
}

export interface Stack {
  config: AppConfig;
  nodes: ServiceBroker[];
  urls: string[];
  url: string;
  knex: Knex;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<HttpResult<T>>;
  /** Stops one node (as a crash would: no graceful hand-off beyond the broker's own). */
  stopNode(index: number): Promise<void>;
  /**
   * Kills one node as kill -9 would, once its peers noticed: its HTTP connections drop, it never
   * answers or sends again, its requests in flight wait forever for answers that never come, and
   * every peer sees it disconnected unexpectedly (what their heartbeat timeout concludes).
   */
  crashNode(index: number): Promise<void>;
  /** Starts a new node with the same configuration and returns its index. */
  addNode(spec: NodeSpec): Promise<number>;
  stop(): Promise<void>;
}

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const varDir = mkdtempSync(join(tmpdir(), 'fiscal-test-'));
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    VAR_DIR: varDir,
    MAIL_DIR: join(varDir, 'mail'),
    PGLITE_DIR: join(varDir, 'pgdata'),
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    NAMESPACE: `t${randomBytes(4).toString('hex')}`,
    REDIS_PREFIX: `test:${randomUUID()}:`,
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: 'http://api.test',
    ERRORS_BASE: 'https://errors.test',
    IP_RATE_LIMIT: '1000',
    // The availability monitor's timer would send status calls into other tests' simulator faults;
    // its own tests drive it with pollDue/checkNow.
    MONITOR_ENABLED: '0',
    // Argon2id at 1 MiB and one pass (production: OWASP's 19 MiB, two passes): tests hash many passwords.
    AUTH_ARGON2_MEMORY_KIB: '1024',
    AUTH_ARGON2_TIME_COST: '1',
    ...extra,
  };
}

/** A writable that keeps every log line written to it (JSON lines from pino). */
export function captureLogs(): { stream: NodeJS.WritableStream; lines(): any[]; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { chunks.push(chunk.toString()); cb(); } });
  return {
    stream,
    text: () => chunks.join(''),
    lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)),
  };
}

function gatewayUrl(broker: ServiceBroker): string | null {
  const api: any = broker.getLocalService('api');
  if (!api?.server) return null;
  const addr = api.server.address();
  if (!addr || typeof addr === 'string') return null; // its server closed (a crashed node)
  return `http://127.0.0.1:${addr.port}`;
}

/**
 * Every node knows every other node. waitForServices alone can pass while a node has not met a
 * later one yet (it already runs the same service locally), so broadcasts would miss it until the
 * next heartbeat.
 */
async function waitForMesh(brokers: ServiceBroker[], timeoutMs = 15_000): Promise<void> {
  if (brokers.length < 2) return;
  const ids = brokers.map((b) => b.nodeID);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const complete = brokers.every((b) => ids.every((id) => b.registry.nodes.get(id)?.available));
    if (complete) return;
    if (Date.now() > deadline) throw new Error('nodes did not discover each other in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function refreshAliases(brokers: ServiceBroker[]): Promise<void> {
  for (const b of brokers) {
    const api: any = b.getLocalService('api');
    if (api) for (const r of api.routes) if (r.opts.autoAliases) api.regenerateAutoAliases(r);
  }
}

/** Stacks alive in this test process; the shared Redis clients close with the last one. */
let liveStacks = 0;

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  liveStacks++;
  const db = opts.pglite ? null : await createTestDatabase();
  const env = testEnv({
    ...(db ? { DATABASE_URL: opts.databaseUrlVia ? await opts.databaseUrlVia(db.url) : db.url } : {}),
    ...(opts.redis ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...(opts.env ?? {}),
  });
  const config = loadConfig(env);
  const specs = opts.nodes ?? [{ services: [...ALL_SERVICES] }];
  const nodes: ServiceBroker[] = [];
  const crashed = new Set<ServiceBroker>();
  let counter = 0;

  async function launch(spec: NodeSpec): Promise<ServiceBroker> {
    const nodeConfig = loadConfig({ ...env, ...(spec.env ?? {}), NODE_ID: `${config.namespace}-n${counter++}` });
    const broker = await createNode({ config: nodeConfig, clock: spec.clock ?? opts.clock, services: spec.services, logDestination: spec.logDestination });
    for (const extra of spec.extra ?? []) broker.createService(extra);
    await broker.start();
    return broker;
  }

  for (const spec of specs) nodes.push(await launch(spec));
  const allServices = [...new Set(nodes.flatMap((b) => b.services.map((s) => s.fullName)))];
  await Promise.all(nodes.map((b) => b.waitForServices(allServices, 20_000)));
  await waitForMesh(nodes);
  await refreshAliases(nodes);
  const knex = await getKnex(config);

  const stack: Stack = {
    config,
    nodes,
    get urls() { return nodes.map(gatewayUrl).filter((u): u is string => !!u); },
    get url() { return stack.urls[0]!; },
    knex,
    async request(method, path, ro = {}) {
      const base = stack.urls[ro.node ?? 0];
      if (!base) throw new Error('no gateway node in this stack');
      const headers: Record<string, string> = { ...(ro.headers ?? {}) };
      let body: string | undefined = ro.rawBody;
      if (ro.body !== undefined) { body = JSON.stringify(ro.body); headers['content-type'] ??= 'application/json'; }
      const res = await fetch(base + path, { method, headers, body });
      const text = await res.text();
      let parsed: any = text;
      try { parsed = text ? JSON.parse(text) : undefined; } catch { /* not JSON: keep text */ }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async stopNode(index) {
      await nodes[index]!.stop();
    },
    async crashNode(index) {
      const b: any = nodes[index]!;
      const api = b.getLocalService('api');
      if (api?.server) { api.server.close(); api.server.closeAllConnections(); }
      b.registry.discoverer.stopHeartbeatTimers();
      b.transit.connected = false;
      b.transit.isReady = false;
      await b.transit.tx.disconnect();
      b.transit.tx.connected = false;
      crashed.add(b);
      for (const peer of nodes) if (!crashed.has(peer)) (peer as any).registry.nodes.disconnected(b.nodeID, true);
    },
    async addNode(spec) {
      const b = await launch(spec);
      nodes.push(b);
      await b.waitForServices(allServices, 20_000).catch(() => undefined);
      await waitForMesh(nodes.filter((n) => n.started && !crashed.has(n)));
      await refreshAliases(nodes);
      return nodes.length - 1;
    },
    async stop() {
      // A crashed node's calls never end by themselves (their timers would hold the process): end
      // them, then stop what is left of it (its services' own timers and loops).
      for (const b of crashed) for (const req of (b as any).transit.pendingRequests.values()) req.reject(new Error('node crashed'));
      for (const b of nodes) await b.stop().catch(() => undefined);
      await closeKnex(config);
      if (db) await db.drop().catch(() => undefined);
      rmSync(env.VAR_DIR!, { recursive: true, force: true });
      if (--liveStacks === 0) await closeAllRedis();
    },
  };
  return stack;
}
