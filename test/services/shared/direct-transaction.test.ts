import test from 'ava';
import knexFactory, { type Knex } from 'knex';
import { directTransaction, RollBack, supportsDirectTransactions } from '../../../services/shared/direct-transaction.js';
import { createTestDatabase } from '../../support/stack.js';

const CLAIM = 'update ?? set n = n + 1 where k = ? and m = ? returning n - 1 as number';

async function database(t: { teardown(fn: () => Promise<void>): void }): Promise<Knex> {
  const db = await createTestDatabase();
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  await knex.raw('create schema s; create table s.seq (k text, m int, n int); create table s.docs (n int primary key)');
  await knex.raw("insert into s.seq values ('a-1', 55, 1)");
  return knex;
}

test('the opening statement answers its rows; what the body wrote commits with it, on one connection', async (t) => {
  const knex = await database(t);
  t.true(supportsDirectTransactions(knex));
  const seen: string[] = [];
  knex.on('query', (q: { sql: string }) => seen.push(q.sql));
  const n = await directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], async (tx, rows) => {
    await tx.query('insert into s.docs (n) values (?)', [rows[0].number]);
    return Number(rows[0].number);
  });
  t.is(n, 1);
  t.deepEqual(seen, ['begin; update "s"."seq" set n = n + 1 where k = \'a-1\' and m = 55 returning n - 1 as number', 'insert into s.docs (n) values ($1)', 'commit']);
  t.deepEqual((await knex('s.docs').select('n')).map((r) => r.n), [1]);
  t.is((await knex('s.seq').first('n')).n, 2);
});

test('a throw in the body rolls the opening statement back with the rest; RollBack reaches the caller as itself', async (t) => {
  const knex = await database(t);
  const boom = await t.throwsAsync(directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], async (tx, rows) => {
    await tx.query('insert into s.docs (n) values (?)', [rows[0].number]);
    throw new Error('boom');
  }));
  t.is(boom?.message, 'boom');
  const back = await t.throwsAsync(directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], async () => { throw new RollBack('taken'); }), { instanceOf: RollBack });
  t.is(back?.reason, 'taken');
  // A failing statement inside (a duplicate key) aborts the transaction; it is rolled back too.
  await knex.raw('insert into s.docs values (1)');
  const dup = await t.throwsAsync(directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], (tx) => tx.query('insert into s.docs (n) values (?)', [1])));
  t.is((dup as { code?: string }).code, '23505');
  t.is((await knex('s.seq').first('n')).n, 1, 'every claim was rolled back');
  t.deepEqual((await knex('s.docs').select('n')).map((r) => r.n), [1]);
  // The connection went back to the pool usable (pool of one).
  t.is((await knex.raw('select 1 as one')).rows[0].one, 1);
});

test('the opening literals are keys only: no quote, placeholder or unsafe number reaches the SQL', async (t) => {
  const knex = await database(t);
  const refuse = async (literals: (string | number)[], message: RegExp) => {
    await t.throwsAsync(directTransaction(knex, CLAIM, literals, async () => 1), { message });
  };
  await refuse(['s.seq', "a' or '1'='1", 55], /key-like/);
  await refuse(['s.seq', 'a?', 55], /key-like/);
  await refuse(['s.seq', 'a-1', 2 ** 60], /safe integer/);
  await refuse(['s.seq', 'a-1'], /fewer literals/);
  await refuse(['s.seq', 'a-1', 55, 1], /more literals/);
  t.is((await knex('s.seq').first('n')).n, 1);
});
