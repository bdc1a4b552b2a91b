import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { hostname } from 'node:os';
import { inspect } from 'node:util';

/**
 * Runtime configuration, read from the environment once at startup into a frozen object.
 * Every default is the embedded mode: PGlite under var/, no transporter, the built-in authority
 * simulator. Secrets the embedded mode needs are generated once into var/secrets.json so a
 * restart keeps sessions and encrypted data readable; with DATABASE_URL set they are required.
 */
export interface AppConfig {
  readonly env: 'development' | 'test' | 'production';
  readonly nodeId: string;
  readonly namespace: string;
  /** Services this node runs; empty means all. */
  readonly services: readonly string[];
  readonly http: {
    readonly port: number;
    readonly host: string;
    readonly bodyLimit: string;
    /** Connections the kernel may hold completed for the gateway before it accepts them (Linux caps it at net.core.somaxconn). */
    readonly listenBacklog: number;
  };
  readonly baseUrl: string;
  readonly errorsBase: string;
  readonly build: string;
  readonly databaseUrl: string | null;
  readonly pgliteDir: string;
  readonly redisUrl: string | null;
  readonly redisPrefix: string;
  /**
   * Largest packet a node puts on the transporter (TRANSPORT_MAX_PACKET_BYTES, default 8 MiB:
   * Redis's default pub/sub soft output limit). Above it a request fails at its sender and a reply
   * is replaced by a catalogued error (services/middlewares/transport-cap.middleware.ts).
   */
  readonly transportMaxPacketBytes: number;
  /** Time limit of one certificate job in its worker thread (CERTIFICATE_TIMEOUT_MS; services/issuer/pkcs12-pool.ts). */
  readonly certificateTimeoutMs: number;
  /** Worker threads drawing DANFE/DANFSe PDFs per emission node (PRINT_THREADS; services/emission/print-pool.ts). */
  readonly printThreads: number;
  /** Large NF-e/NFC-e drafted in worker threads (services/emission/draft-pool.ts): threads per node, and from how many items. */
  readonly drafts: { readonly threads: number; readonly minItems: number };
  readonly logLevel: string;
  readonly jwtSecret: string;
  /** AES-256-GCM keys by id; the first is used to encrypt, all are tried to decrypt (rotation). */
  readonly encryptionKeys: readonly { readonly id: string; readonly key: Buffer }[];
  readonly auth: {
    /**
     * Argon2id cost of new password hashes (lib/auth/password.ts): memory in KiB and passes
     * (AUTH_ARGON2_MEMORY_KIB, AUTH_ARGON2_TIME_COST; default OWASP's 19456 and 2, one lane).
     */
    readonly argon2: { readonly memoryKiB: number; readonly timeCost: number; readonly parallelism: number };
    /** How often each auth node purges dead sessions and tokens; 0 disables the loop (tests drive purgeExpired). */
    readonly purgeIntervalMs: number;
    /** How long dead rows are kept for audit before the purge deletes them. */
    readonly purgeGraceMs: number;
  };
  readonly mail: { readonly smtpUrl: string | null; readonly dir: string; readonly from: string; readonly platformOwner: string };
  readonly rateLimit: { readonly ipPerSecond: number };
  /** Bearer token GET /metrics requires (METRICS_TOKEN); null: the scrape is open. */
  readonly metricsToken: string | null;
  /**
   * After SIGTERM/SIGINT the node fails readiness at once and keeps serving this long before it
   * stops (DRAIN_DELAY_MS, default 0): time for a load balancer to take it out of rotation.
   */
  readonly drainDelayMs: number;
  readonly webhooks: {
    readonly allowPrivateTargets: boolean;
    readonly requireHttps: boolean;
    readonly timeoutMs: number;
    /** How often each dispatcher node looks for due attempts; 0 disables the loop (tests drive runDue). */
    readonly pollMs: number;
    /** Kept-alive connections per receiver origin, per dispatcher node (WEBHOOK_MAX_SOCKETS). */
    readonly maxSocketsPerOrigin: number;
    /** An idle kept-alive connection closes after this (WEBHOOK_IDLE_SOCKET_MS). */
    readonly idleSocketMs: number;
    /** Finished deliveries are purged after these many days; the purge runs every `intervalMs` (0: never). */
    readonly retention: { readonly deliveredDays: number; readonly exhaustedDays: number; readonly intervalMs: number };
  };
  readonly sefaz: {
    /** Port of the in-process simulator; 0 picks a free one. */
    readonly simulatorPort: number;
    /** Start the in-process simulator on this node. */
    readonly embeddedSimulator: boolean;
    /** URL of a standalone simulator (npm run simulator) when not embedded. */
    readonly simulatorUrl: string | null;
    readonly connectTimeoutMs: number;
    readonly readTimeoutMs: number;
    /** PEM bundle of authority CAs trusted for mTLS; null = the simulator's CA only. */
    readonly caFile: string | null;
    /** Where the simulator keeps its CA and server certificate (generated once). */
    readonly simulatorDir: string;
    /** CA the client trusts for a standalone simulator (its var/simulator/ca.pem). */
    readonly simulatorCaFile: string | null;
    /** PEM bundle of CAs whose client certificates the simulator accepts besides its own (ICP-Brasil, tests). */
    readonly simulatorClientCaFile: string | null;
    /** Loopback port of the simulator's plain-HTTP admin (fault injection); 0 picks a free one. */
    readonly simulatorAdminPort: number;
    /** Faults active from start, JSON array of FaultSpec (services/sefaz/simulator/faults.ts). */
    readonly simulatorFaults: readonly unknown[];
    /** IBGE codes the simulated Sefin Nacional treats as municipalities without convênio (E0037). */
    readonly simulatorSefinNonAdherent: readonly string[];
    /** Where homologation issuers without an endpoint override go: the simulator or the real authority. */
    readonly homologationTarget: 'simulator' | 'authority';
    /** Extra attempts of consult/status/receipt after an infrastructure failure (never of transmissions). */
    readonly consultRetries: number;
    readonly retryDelayMs: number;
    /** Per UF+model+environment breaker: consecutive failures to open, and cooldown before a trial. */
    readonly breakerThreshold: number;
    readonly breakerCooldownMs: number;
    /** Send `Expect: 100-continue` so failures before the body left are told apart exactly. */
    readonly expectContinue: boolean;
    /** Connections (and calls in flight) per issuer certificate on one sefaz node; the rest wait in its queue. */
    readonly maxSockets: number;
    /** Calls of one issuer certificate waiting for a connection before the next is refused at once (`queue-full`). */
    readonly maxQueued: number;
    /** Longest wait for a connection (`queue-timeout` after it); with the timeouts it stays under the broker's 90 s. */
    readonly queueTimeoutMs: number;
  };
  /**
   * Per issuer and emission node, NF-e, NFC-e and NFS-e together (issue 20, defect 2): numbering
   * transactions in flight, how many more may wait (in memory, holding no database connection) and
   * for how long; beyond either the request is refused before numbering with 503 EMISSOR_SOBRECARREGADO.
   */
  readonly numbering: {
    readonly perIssuer: number;
    /**
     * Per issuer and emission node: documents numbered and not yet answered by the authority. A new
     * document waits for one of these (in the numbering's queue bounds) before its number is taken,
     * so an overload queues, or is refused with 503, before numbering, instead of numbering notes
     * that the certificate's connection queue then refuses (`queue-full`, ERROR).
     */
    readonly inFlightPerIssuer: number;
    readonly maxQueued: number;
    readonly queueTimeoutMs: number;
  };
  /** Authority availability monitor (services/contingency-monitor.service.ts). */
  readonly monitor: {
    /** Each node looks for due (UF, ambiente) rows every `tickMs` (MONITOR_ENABLED=0: never; actions still answer). */
    readonly enabled: boolean;
    /** How often each UF is checked (API.md, Limits: every 5 minutes). */
    readonly intervalMs: number;
    readonly tickMs: number;
    /** Status calls in flight at once per node. */
    readonly concurrency: number;
    /** Environments polled: 1 produção, 2 homologação. */
    readonly ambientes: readonly (1 | 2)[];
    /** Which authority web service's status is asked: NF-e (55) or NFC-e (65). */
    readonly model: '55' | '65';
    /**
     * The platform's own A1 for mutual TLS (read by the sefaz node, never sent over the
     * transporter). null: outside production the sefaz node issues one from the sandbox CA.
     */
    readonly certificate: { readonly pfx: Redacted<Buffer>; readonly password: Redacted<string> } | null;
  };
  readonly lookupProviderUrl: string | null;
  /**
   * Lease of the per-node caches of issuer rows, webhook configs and authentications (CACHE_LEASE_MS, default 5000,
   * 0 turns them off; services/shared/cluster-cache.ts): the longest a write waits for a node that
   * does not acknowledge its invalidation. The same on every node.
   */
  readonly cacheLeaseMs: number;
}

/** A secret value that never shows up in logs, JSON or util.inspect; `reveal()` to use it. */
export class Redacted<T> {
  readonly #value: T;
  constructor(value: T) { this.#value = value; }
  reveal(): T { return this.#value; }
  toJSON(): string { return '[redacted]'; }
  toString(): string { return '[redacted]'; }
  [inspect.custom](): string { return '[redacted]'; }
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

/**
 * Queue wait + connect + read of one authority call must end before the broker's 90 s request
 * timeout (moleculer.config.ts): a call still waiting when its caller gave up could otherwise be
 * sent afterwards, and the caller would have stored the wrong outcome.
 */
function authorityQueueTimeout(env: Env): number {
  const queue = positive(env, 'SEFAZ_QUEUE_TIMEOUT_MS', 20_000);
  const total = queue + int(env, 'SEFAZ_CONNECT_TIMEOUT_MS', 5_000) + int(env, 'SEFAZ_READ_TIMEOUT_MS', 30_000);
  if (total >= 90_000) throw new Error(`SEFAZ_QUEUE_TIMEOUT_MS + SEFAZ_CONNECT_TIMEOUT_MS + SEFAZ_READ_TIMEOUT_MS must stay under 90000 (the broker's request timeout), got ${total}`);
  return queue;
}

/** Argon2 needs at least 8 KiB per lane (RFC 9106, 3.1); one lane here. */
function argon2Memory(env: Env): number {
  const n = int(env, 'AUTH_ARGON2_MEMORY_KIB', 19_456);
  if (n < 8) throw new Error(`AUTH_ARGON2_MEMORY_KIB must be at least 8, got ${n}`);
  return n;
}

function positive(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n < 1) throw new Error(`${name} must be a positive integer, got ${n}`);
  return n;
}

/**
 * Below Moleculer's heartbeat timeout (15 s) with room: a node its peers stopped seeing must hold
 * nothing older than what they can no longer reach (services/shared/cluster-cache.ts).
 */
function cacheLease(env: Env): number {
  const ms = int(env, 'CACHE_LEASE_MS', 5_000);
  if (ms > 10_000) throw new Error(`CACHE_LEASE_MS must be at most 10000, got ${ms}`);
  return ms;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw === '1' || raw.toLowerCase() === 'true';
}

interface LocalSecrets { jwtSecret: string; encryptionKey: string }

/** Secrets of the embedded mode, kept in var/ so they survive restarts. */
function localSecrets(varDir: string): LocalSecrets {
  const file = resolve(varDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  const secrets: LocalSecrets = {
    jwtSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32).toString('base64'),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

function parseKeys(raw: string): { id: string; key: Buffer }[] {
  return raw.split(',').map((part) => {
    const [id, b64] = part.includes(':') ? part.split(':', 2) as [string, string] : ['k1', part];
    const key = Buffer.from(b64, 'base64');
    if (key.length !== 32) throw new Error(`ENCRYPTION_KEYS entry ${id} must be 32 bytes in base64`);
    return { id, key };
  });
}

const AMBIENTE_BY_NAME: Record<string, 1 | 2> = { producao: 1, homologacao: 2 };

function monitorConfig(env: Env, envName: AppConfig['env']): AppConfig['monitor'] {
  const file = env.MONITOR_CERT_FILE || null;
  const base64 = env.MONITOR_CERT_BASE64 || null;
  if (file && base64) throw new Error('set MONITOR_CERT_FILE or MONITOR_CERT_BASE64, not both');
  let certificate: AppConfig['monitor']['certificate'] = null;
  if (file || base64) {
    if (env.MONITOR_CERT_PASSWORD === undefined) throw new Error('MONITOR_CERT_PASSWORD is required with a monitoring certificate');
    const pfx = file ? readFileSync(file) : Buffer.from(base64!, 'base64');
    certificate = Object.freeze({ pfx: new Redacted(pfx), password: new Redacted(env.MONITOR_CERT_PASSWORD) });
  }
  // Production has no sandbox certificate to fall back on: without its own certificate the
  // monitor is off unless asked for explicitly, and asking for it without one is an error.
  const canRun = certificate !== null || envName !== 'production';
  const enabled = bool(env, 'MONITOR_ENABLED', canRun);
  if (enabled && !canRun) throw new Error('MONITOR_ENABLED in production requires MONITOR_CERT_FILE (or MONITOR_CERT_BASE64) and MONITOR_CERT_PASSWORD');
  const rawAmbientes = env.MONITOR_AMBIENTES || (envName === 'production' ? 'producao' : 'homologacao');
  const ambientes = [...new Set(rawAmbientes.split(',').map((a) => a.trim()).filter(Boolean).map((a) => {
    const code = AMBIENTE_BY_NAME[a];
    if (!code) throw new Error(`MONITOR_AMBIENTES entries must be producao or homologacao, got ${a}`);
    return code;
  }))];
  const model = env.MONITOR_MODEL || '55';
  if (model !== '55' && model !== '65') throw new Error(`MONITOR_MODEL must be 55 or 65, got ${model}`);
  return Object.freeze({
    enabled,
    intervalMs: positive(env, 'MONITOR_INTERVAL_MS', 300_000),
    tickMs: positive(env, 'MONITOR_TICK_MS', 10_000),
    concurrency: positive(env, 'MONITOR_CONCURRENCY', 5),
    ambientes: Object.freeze(ambientes),
    model,
    certificate,
  });
}

export function loadConfig(env: Env = process.env): AppConfig {
  const envName = (env.NODE_ENV === 'production' || env.NODE_ENV === 'test') ? env.NODE_ENV : 'development';
  const varDir = resolve(env.VAR_DIR ?? 'var');
  const databaseUrl = env.DATABASE_URL || null;
  const needsExplicitSecrets = envName === 'production';
  if (needsExplicitSecrets && (!env.JWT_SECRET || !env.ENCRYPTION_KEYS)) {
    throw new Error('production requires JWT_SECRET and ENCRYPTION_KEYS');
  }
  const local = env.JWT_SECRET && env.ENCRYPTION_KEYS ? null : localSecrets(varDir);
  const port = int(env, 'PORT', 3000);
  const baseUrl = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const services = (env.SERVICES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const embeddedSimulator = bool(env, 'SIMULATOR_EMBEDDED', !env.SIMULATOR_URL && envName !== 'production');

  return Object.freeze({
    env: envName,
    nodeId: env.NODE_ID ?? `${hostname()}-${process.pid}`,
    namespace: env.NAMESPACE ?? '',
    services,
    http: Object.freeze({ port, host: env.HOST ?? '0.0.0.0', bodyLimit: env.BODY_LIMIT ?? '5mb', listenBacklog: positive(env, 'HTTP_LISTEN_BACKLOG', 4096) }),
    baseUrl,
    errorsBase: (env.ERRORS_BASE ?? `${baseUrl}/errors`).replace(/\/$/, ''),
    build: env.BUILD ?? env.GIT_COMMIT ?? 'dev',
    databaseUrl,
    pgliteDir: resolve(env.PGLITE_DIR ?? resolve(varDir, 'pgdata')),
    redisUrl: env.REDIS_URL || null,
    redisPrefix: env.REDIS_PREFIX ?? 'fiscal:',
    transportMaxPacketBytes: positive(env, 'TRANSPORT_MAX_PACKET_BYTES', 8 * 1024 * 1024),
    certificateTimeoutMs: positive(env, 'CERTIFICATE_TIMEOUT_MS', 10_000),
    printThreads: positive(env, 'PRINT_THREADS', 1),
    drafts: Object.freeze({ threads: positive(env, 'DRAFT_THREADS', 1), minItems: positive(env, 'DRAFT_MIN_ITEMS', 200) }),
    logLevel: env.LOG_LEVEL ?? (envName === 'test' ? 'warn' : 'info'),
    jwtSecret: env.JWT_SECRET ?? local!.jwtSecret,
    encryptionKeys: Object.freeze(parseKeys(env.ENCRYPTION_KEYS ?? `local:${local!.encryptionKey}`)),
    auth: Object.freeze({
      argon2: Object.freeze({ memoryKiB: argon2Memory(env), timeCost: positive(env, 'AUTH_ARGON2_TIME_COST', 2), parallelism: 1 }),
      purgeIntervalMs: int(env, 'AUTH_PURGE_INTERVAL_MS', 10 * 60_000),
      purgeGraceMs: int(env, 'AUTH_PURGE_GRACE_MS', 7 * 24 * 3600_000),
    }),
    mail: Object.freeze({
      smtpUrl: env.SMTP_URL || null,
      dir: resolve(env.MAIL_DIR ?? resolve(varDir, 'mail')),
      from: env.MAIL_FROM ?? 'Fiscal API <no-reply@localhost>',
      platformOwner: env.PLATFORM_OWNER_EMAIL ?? 'owner@localhost',
    }),
    rateLimit: Object.freeze({ ipPerSecond: int(env, 'IP_RATE_LIMIT', 20) }),
    metricsToken: env.METRICS_TOKEN || null,
    drainDelayMs: int(env, 'DRAIN_DELAY_MS', 0),
    webhooks: Object.freeze({
      allowPrivateTargets: bool(env, 'WEBHOOK_ALLOW_PRIVATE', envName !== 'production'),
      requireHttps: bool(env, 'WEBHOOK_REQUIRE_HTTPS', envName === 'production'),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
      pollMs: int(env, 'WEBHOOK_POLL_MS', 1_000),
      maxSocketsPerOrigin: positive(env, 'WEBHOOK_MAX_SOCKETS', 8),
      idleSocketMs: positive(env, 'WEBHOOK_IDLE_SOCKET_MS', 4_000),
      retention: Object.freeze({
        deliveredDays: positive(env, 'WEBHOOK_RETENTION_DELIVERED_DAYS', 30),
        exhaustedDays: positive(env, 'WEBHOOK_RETENTION_FAILED_DAYS', 90),
        intervalMs: int(env, 'WEBHOOK_RETENTION_INTERVAL_MS', 3_600_000),
      }),
    }),
    sefaz: Object.freeze({
      simulatorPort: int(env, 'SIMULATOR_PORT', 0),
      embeddedSimulator,
      simulatorUrl: env.SIMULATOR_URL || null,
      connectTimeoutMs: int(env, 'SEFAZ_CONNECT_TIMEOUT_MS', 5_000),
      readTimeoutMs: int(env, 'SEFAZ_READ_TIMEOUT_MS', 30_000),
      caFile: env.SEFAZ_CA_FILE || null,
      simulatorDir: resolve(env.SIMULATOR_DIR ?? resolve(varDir, 'simulator')),
      simulatorCaFile: env.SIMULATOR_CA_FILE || null,
      simulatorClientCaFile: env.SIMULATOR_CLIENT_CA_FILE || null,
      simulatorAdminPort: int(env, 'SIMULATOR_ADMIN_PORT', 0),
      simulatorFaults: Object.freeze(env.SIMULATOR_FAULTS ? JSON.parse(env.SIMULATOR_FAULTS) as unknown[] : []),
      simulatorSefinNonAdherent: Object.freeze((env.SIMULATOR_SEFIN_NAO_ADERENTES ?? '').split(',').map((c) => c.trim()).filter(Boolean)),
      homologationTarget: env.SEFAZ_HOMOLOGATION_TARGET === 'authority' ? 'authority' : 'simulator',
      consultRetries: int(env, 'SEFAZ_CONSULT_RETRIES', 2),
      retryDelayMs: int(env, 'SEFAZ_RETRY_DELAY_MS', 200),
      breakerThreshold: int(env, 'SEFAZ_BREAKER_THRESHOLD', 5),
      breakerCooldownMs: int(env, 'SEFAZ_BREAKER_COOLDOWN_MS', 30_000),
      expectContinue: bool(env, 'SEFAZ_EXPECT_CONTINUE', true),
      // 32: a call to a real authority takes 100-500 ms, and 8 connections capped one issuer at
      // 16-80 notes/s there; against the simulator at 400 notes/s (bench/cluster.ts open-nfe-1,
      // 2026-11-27) the 8 held a queue that added 35 ms to the mean and 300 ms to the p99.
      maxSockets: positive(env, 'SEFAZ_MAX_SOCKETS', 32),
      maxQueued: int(env, 'SEFAZ_MAX_QUEUED', 2_000),
      queueTimeoutMs: authorityQueueTimeout(env),
    }),
    numbering: Object.freeze({
      perIssuer: positive(env, 'EMISSION_NUMBERING_PER_ISSUER', 2),
      inFlightPerIssuer: positive(env, 'EMISSION_IN_FLIGHT_PER_ISSUER', 64),
      maxQueued: int(env, 'EMISSION_NUMBERING_MAX_QUEUED', 5_000),
      queueTimeoutMs: positive(env, 'EMISSION_NUMBERING_TIMEOUT_MS', 20_000),
    }),
    monitor: monitorConfig(env, envName),
    lookupProviderUrl: env.LOOKUP_PROVIDER_URL || null,
    cacheLeaseMs: cacheLease(env),
  });
}
