import test from 'ava';
import knexFactory, { type Knex } from 'knex';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasPgConnections, positional, runStatement } from '../../../services/shared/pg-statement.js';
import { createTestDatabase } from '../../support/stack.js';

const quoting = { escapeIdentifier: (s: string) => `"${s.replace(/"/g, '""')}"` };

test('positional: `?` becomes $n with its value, `??` the quoted identifier part by part; undefined binds as null', (t) => {
  t.deepEqual(
    positional('update ?? set a = ?, b = ? where ?? = ?', ['s.t', 1, undefined as unknown as null, 'id', 'x'], quoting),
    { text: 'update "s"."t" set a = $1, b = $2 where "id" = $3', values: [1, null, 'x'] },
  );
  t.deepEqual(positional('select 1', [], quoting), { text: 'select 1', values: [] });
  t.deepEqual(positional('select ??', ['we"ird'], quoting), { text: 'select "we""ird"', values: [] });
});

test('positional: a count that does not match, or an identifier that is not a string, throws before anything is sent', (t) => {
  t.throws(() => positional('select ?, ?', [1], quoting), { message: /fewer bindings/ });
  t.throws(() => positional('select ?', [1, 2], quoting), { message: /more bindings/ });
  t.throws(() => positional('select ??', [1], quoting), { message: /identifier must be a string/ });
});

async function pgKnex(t: { teardown(fn: () => Promise<void>): void }): Promise<Knex> {
  const db = await createTestDatabase();
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  await knex.raw('create schema s; create table s.t (id int primary key, v text)');
  return knex;
}

test('runStatement on Postgres: the driver runs it on a pooled connection (prepared when asked), and knex listeners see it', async (t) => {
  const knex = await pgKnex(t);
  t.true(hasPgConnections(knex));
  const seen: { sql: string; bindings: unknown[] }[] = [];
  knex.on('query', (q) => seen.push({ sql: q.sql, bindings: q.bindings }));
  const inserted = await runStatement(knex, 'insert into ?? (id, v) values (?, ?) returning id', ['s.t', 1, 'um'], { prepare: true });
  t.deepEqual(inserted.rows, [{ id: 1 }]);
  // The same text again reuses the connection's prepared statement (a second Parse would be refused by pg under the same name with another text).
  await runStatement(knex, 'insert into ?? (id, v) values (?, ?) returning id', ['s.t', 2, 'dois'], { prepare: true });
  t.deepEqual((await knex('s.t').orderBy('id').select('id', 'v')), [{ id: 1, v: 'um' }, { id: 2, v: 'dois' }]);
  t.deepEqual(seen.slice(0, 2), [
    { sql: 'insert into "s"."t" (id, v) values ($1, $2) returning id', bindings: [1, 'um'] },
    { sql: 'insert into "s"."t" (id, v) values ($1, $2) returning id', bindings: [2, 'dois'] },
  ]);
  // A failing statement rejects with the driver's error and the connection goes back usable (pool of one).
  const dup = await t.throwsAsync(runStatement(knex, 'insert into ?? (id, v) values (?, ?)', ['s.t', 1, 'de novo']));
  t.is((dup as { code?: string }).code, '23505');
  t.is((dup as { constraint?: string }).constraint, 't_pkey');
  t.is((await runStatement(knex, 'select count(*)::int as n from ??', ['s.t'])).rows[0].n, 2);
});

test('runStatement on PGlite: the same text runs through knex.raw', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-statement-'));
  const { default: ClientPgLite } = await import('knex-pglite');
  const knex = knexFactory({ client: ClientPgLite as unknown as typeof knexFactory.Client, dialect: 'postgres', connection: { filename: dir } } as Knex.Config);
  t.teardown(async () => { await knex.destroy(); rmSync(dir, { recursive: true, force: true }); });
  t.false(hasPgConnections(knex));
  await knex.raw('create schema s');
  await knex.raw('create table s.t (id int primary key, v text)');
  const inserted = await runStatement(knex, 'insert into ?? (id, v) values (?, ?) returning id, v', ['s.t', 7, 'sete'], { prepare: true });
  t.deepEqual(inserted.rows, [{ id: 7, v: 'sete' }]);
});
