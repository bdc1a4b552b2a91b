import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { getKnex, closeKnex } from '../../../services/shared/database.js';
import { migrateSchema, type Migration } from '../../../services/shared/migrations.js';
import { createTestDatabase } from '../../support/stack.js';

const migrations: Migration[] = [
  {
    name: '001_jobs',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('jobs', (t) => {
        t.increments('id');
        t.string('state').notNullable();
        t.jsonb('payload');
      });
    },
  },
  {
    name: '002_jobs_owner',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('jobs', (t) => t.string('owner'));
    },
  },
];

/**
 * The same storage contract, run on both backends (issue 2: "Both backends pass the same storage tests").
 * Serial: each PGlite start compiles its WASM on the main thread for seconds; four at once starve
 * the event loop so long that the Postgres pool's 10 s acquire timer fires on a healthy server.
 */
const backends: { name: string; open(): Promise<{ knex: Knex; close(): Promise<void> }> }[] = [
  {
    name: 'postgres',
    async open() {
      const db = await createTestDatabase();
      const cfg = { databaseUrl: db.url, pgliteDir: '' };
      const knex = await getKnex(cfg);
      return { knex, close: async () => { await closeKnex(cfg); await db.drop(); } };
    },
  },
  {
    name: 'pglite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
      const cfg = { databaseUrl: null, pgliteDir: dir };
      const knex = await getKnex(cfg);
      return { knex, close: async () => { await closeKnex(cfg); rmSync(dir, { recursive: true, force: true }); } };
    },
  },
];

for (const backend of backends) {
  test.serial(`${backend.name}: migrations run into the service schema once, even when started twice at the same time`, async (t) => {
    const { knex, close } = await backend.open();
    t.teardown(close);
    const [a, b] = await Promise.all([migrateSchema(knex, 'svc_a', migrations), migrateSchema(knex, 'svc_a', migrations)]);
    t.deepEqual([...a, ...b].sort(), ['001_jobs', '002_jobs_owner']);
    t.deepEqual(await migrateSchema(knex, 'svc_a', migrations), []);
    const cols = await knex('information_schema.columns').where({ table_schema: 'svc_a', table_name: 'jobs' }).pluck('column_name');
    t.deepEqual(cols.sort(), ['id', 'owner', 'payload', 'state']);
  });

  test.serial(`${backend.name}: a duplicated migration lock row (two nodes creating the tables at once) does not block migrations forever`, async (t) => {
    const { knex, close } = await backend.open();
    t.teardown(close);
    await migrateSchema(knex, 'svc_l', migrations.slice(0, 1));
    await knex('svc_l.knex_migrations_lock').insert({ is_locked: 0 });
    t.deepEqual(await migrateSchema(knex, 'svc_l', migrations), ['002_jobs_owner']);
    t.is(Number((await knex('svc_l.knex_migrations_lock').count('* as n'))[0]!.n), 1);
  });

  test.serial(`${backend.name}: two services keep separate schemas and migration histories`, async (t) => {
    const { knex, close } = await backend.open();
    t.teardown(close);
    await migrateSchema(knex, 'svc_a', migrations);
    await migrateSchema(knex, 'svc_b', migrations.slice(0, 1));
    await knex('svc_a.jobs').insert({ state: 'new', payload: JSON.stringify({ x: 1 }) });
    t.is((await knex('svc_b.jobs').count('* as n'))[0]!.n, backend.name === 'pglite' ? 0 : '0');
    const row = await knex('svc_a.jobs').first();
    t.deepEqual(row.payload, { x: 1 });
  });

  test.serial(`${backend.name}: SKIP LOCKED claims let concurrent workers take distinct rows`, async (t) => {
    const { knex, close } = await backend.open();
    t.teardown(close);
    await migrateSchema(knex, 'svc_q', migrations);
    await knex('svc_q.jobs').insert([1, 2, 3, 4].map(() => ({ state: 'due' })));
    const claim = (owner: string) => knex.transaction(async (trx) => {
      const rows = await trx('svc_q.jobs').where({ state: 'due' }).orderBy('id').limit(2).forUpdate().skipLocked();
      await trx('svc_q.jobs').whereIn('id', rows.map((r) => r.id)).update({ state: 'taken', owner });
      return rows.map((r) => r.id);
    });
    const [x, y] = await Promise.all([claim('w1'), claim('w2')]);
    t.is(new Set([...x, ...y]).size, 4);
    t.is(Number((await knex('svc_q.jobs').where({ state: 'taken' }).count('* as n'))[0]!.n), 4);
  });
}
