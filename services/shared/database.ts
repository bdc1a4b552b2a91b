import knexFactory, { type Knex } from 'knex';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AppConfig } from '../../config.js';
import { knexLog } from './database-log.js';
import { isAlive } from './process-alive.js';

/**
 * One Knex per process and database: PostgreSQL through `pg` when DATABASE_URL is set, otherwise
 * PGlite (embedded Postgres) under var/. Services share it but never each other's tables: every
 * table name is schema-qualified by the owning service (see db.mixin), so nothing depends on the
 * session search_path (PGlite has a single session for the whole process).
 *
 * PGlite allows one connection: a service must never call another service while it holds a
 * transaction, or the two would wait on each other. That rule holds for Postgres too (it keeps
 * transactions short), so it is the rule everywhere.
 */
const instances = new Map<string, Promise<Knex>>();

export function getKnex(config: Pick<AppConfig, 'databaseUrl' | 'pgliteDir'>): Promise<Knex> {
  const key = config.databaseUrl ?? `pglite:${config.pgliteDir}`;
  let pending = instances.get(key);
  if (!pending) {
    pending = open(config);
    instances.set(key, pending);
    pending.catch(() => instances.delete(key));
  }
  return pending;
}

async function open(config: Pick<AppConfig, 'databaseUrl' | 'pgliteDir'>): Promise<Knex> {
  if (config.databaseUrl) {
    const db = knexFactory({
      client: 'pg',
      connection: config.databaseUrl,
      pool: { min: 0, max: 10, idleTimeoutMillis: 10_000 },
      acquireConnectionTimeout: 10_000,
      log: knexLog,
    });
    await db.raw('select 1');
    return db;
  }
  mkdirSync(config.pgliteDir, { recursive: true });
  claimPgliteDir(config.pgliteDir);
  // Loaded only here: the Postgres mode never starts PGlite.
  const { default: PgLiteClient } = await import('./pglite-client.js');
  const db = knexFactory({
    client: PgLiteClient as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: { filename: config.pgliteDir } as Knex.StaticConnectionConfig,
    log: knexLog,
  } as Knex.Config);
  await db.raw('select 1');
  return db;
}

/**
 * PGlite is a single-process database: a second process opening the same directory (say
 * `npm run admin` while `npm start` runs) would corrupt it. A pid file refuses that loudly.
 */
function claimPgliteDir(dir: string): void {
  // Beside the data directory, not in it: PGlite takes a non-empty directory for an existing cluster.
  const lock = `${dir}.pid`;
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(`embedded database ${dir} is in use by process ${pid}: stop it first, or use DATABASE_URL to share a PostgreSQL server`);
    }
  }
  writeFileSync(lock, String(process.pid));
  process.once('exit', () => { try { if (readFileSync(lock, 'utf8') === String(process.pid)) unlinkSync(lock); } catch { /* already gone */ } });
}

/** Closes the pool of one database (tests drop their database afterwards). */
export async function closeKnex(config: Pick<AppConfig, 'databaseUrl' | 'pgliteDir'>): Promise<void> {
  const key = config.databaseUrl ?? `pglite:${config.pgliteDir}`;
  const pending = instances.get(key);
  instances.delete(key);
  if (pending) await (await pending).destroy().catch(() => undefined);
}

/** Closes every pool of this process (tests and shutdown). */
export async function closeAllKnex(): Promise<void> {
  const all = [...instances.values()];
  instances.clear();
  await Promise.allSettled(all.map(async (p) => (await p).destroy()));
}
