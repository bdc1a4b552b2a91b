import test from 'ava';
import knexFactory, { type Knex } from 'knex';
import { committedStatement, directTransaction, RollBack, supportsDirectTransactions } from '../../../services/shared/direct-transaction.js';
import { ServerRefused } from '../../../services/shared/statement-then-commit.js';
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

test('commitWith sends the last statement and COMMIT in one message, prepared, and answers the statement\'s rows', async (t) => {
  const knex = await database(t);
  const seen: string[] = [];
  knex.on('query', (q: { sql: string }) => seen.push(q.sql));
  for (const expected of [1, 2]) {
    const rows = await directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], async (tx, claimed) =>
      (await tx.commitWith('insert into s.docs (n) values (?) returning n', [claimed[0].number], { prepare: true })).rows);
    t.deepEqual(rows, [{ n: expected }]);
  }
  t.deepEqual(seen.slice(0, 2), ['begin; update "s"."seq" set n = n + 1 where k = \'a-1\' and m = 55 returning n - 1 as number', 'insert into s.docs (n) values ($1) returning n; commit']);
  t.is(seen.length, 4, 'no COMMIT of its own');
  t.deepEqual((await knex('s.docs').orderBy('n').select('n')).map((r) => r.n), [1, 2]);
  t.is((await knex('s.seq').first('n')).n, 3);
  // A statement without values commits too (it is still sent with the extended protocol).
  await directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], (tx) => tx.commitWith('insert into s.docs (n) values (3)', []));
  // The pool's one connection is out of any transaction: this statement's transaction is its own.
  t.deepEqual((await knex.raw('select xact_start = query_start as own from pg_stat_activity where pid = pg_backend_pid()')).rows, [{ own: true }]);
  t.deepEqual((await knex('s.docs').orderBy('n').select('n')).map((r) => r.n), [1, 2, 3]);
  t.is((await knex('s.seq').first('n')).n, 4);
});

test('commitWith: a statement the server refuses never reaches COMMIT, and a refused COMMIT commits nothing; both are ServerRefused and the connection stays usable', async (t) => {
  const knex = await database(t);
  await knex.raw('insert into s.docs values (1)');
  const dup = await t.throwsAsync(directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], (tx) => tx.commitWith('insert into s.docs (n) values (?)', [1], { prepare: true })), { instanceOf: ServerRefused });
  t.is(dup?.code, '23505');
  t.is((await knex('s.seq').first('n')).n, 1, 'the claim was rolled back');
  // A deferred constraint is checked at COMMIT: the statement succeeds, COMMIT fails.
  await knex.raw('create table s.parent (n int primary key); create table s.child (n int references s.parent deferrable initially deferred)');
  const late = await t.throwsAsync(directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], (tx) => tx.commitWith('insert into s.child (n) values (?)', [7])), { instanceOf: ServerRefused });
  t.is(late?.code, '23503');
  t.is((await knex('s.seq').first('n')).n, 1, 'nothing of the transaction was committed');
  t.deepEqual(await knex('s.child').select('n'), []);
  t.is((await knex.raw('select 1 as one')).rows[0].one, 1, 'the pool of one lends its connection again');
  // Nothing may run once the commit was sent.
  await t.throwsAsync(directTransaction(knex, CLAIM, ['s.seq', 'a-1', 55], async (tx) => {
    await tx.commitWith('insert into s.docs (n) values (?)', [2]);
    await tx.query('select 1', []);
  }), { message: /after commitWith/ });
  t.deepEqual((await knex('s.docs').orderBy('n').select('n')).map((r) => r.n), [1, 2]);
});

test('committedStatement: a refusal is ServerRefused and nothing of the statement stays; a lost connection is passed on as it came (outcome unknown)', async (t) => {
  const knex = await database(t);
  await knex.raw('insert into s.docs values (2)');
  // A writable CTE claims, the insert fails: the statement commits by itself, so neither stays.
  const claimAndInsert = 'with c as (update ?? set n = n + 1 where k = ? returning n) insert into s.docs (n) select n from c';
  const refused = await t.throwsAsync(committedStatement(knex, claimAndInsert, ['s.seq', 'a-1'], { prepare: true }), { instanceOf: ServerRefused });
  t.is(refused?.code, '23505', 'row 2 is held');
  t.is((await knex('s.seq').first('n')).n, 1, 'the claim did not stay');
  await knex.raw('update s.seq set n = 2');
  t.deepEqual((await committedStatement(knex, `${claimAndInsert} returning n`, ['s.seq', 'a-1'], { prepare: true })).rows, [{ n: 3 }]);
  t.deepEqual((await knex('s.docs').orderBy('n').select('n')).map((r) => r.n), [2, 3], 'committed by itself');
  // The server ends the session while the statement runs: not a refusal.
  const other = knexFactory({ client: 'pg', connection: (knex.client.config as { connection: string }).connection, pool: { min: 0, max: 1 } });
  t.teardown(() => other.destroy());
  const running = committedStatement(knex, 'select pg_sleep(5)', []);
  await new Promise((r) => setTimeout(r, 300));
  await other.raw("select pg_terminate_backend(pid) from pg_stat_activity where query like 'select pg_sleep(5)%' and pid <> pg_backend_pid()");
  const lost = await t.throwsAsync(running);
  t.false(lost instanceof ServerRefused);
});
