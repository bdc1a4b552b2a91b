import test from 'ava';
import knexFactory from 'knex';
import { prepared, statementName } from '../../../services/shared/prepared.js';
import { PG_ADMIN_URL } from '../../support/stack.js';

test('statementName: one name per text, different texts never share one, within Postgres 63 bytes', (t) => {
  const a = statementName('select 1');
  t.is(statementName('select 1'), a);
  t.not(statementName('select 2'), a);
  t.not(statementName('select 1 '), a);
  t.regex(a, /^p_[A-Za-z0-9_-]{24}$/);
});

test('prepared: Postgres keeps the statement prepared on the connection and reuses it', async (t) => {
  // One connection, so the second execution runs where the first prepared it.
  const knex = knexFactory({ client: 'pg', connection: PG_ADMIN_URL, pool: { min: 1, max: 1 } });
  t.teardown(() => knex.destroy());
  const run = (n: number) => prepared(knex.raw('select ?::int + 1 as n', [n]));
  t.is((await run(1)).rows[0].n, 2);
  t.is((await run(41)).rows[0].n, 42);
  const { rows } = await knex.raw('select name, statement from pg_prepared_statements');
  t.deepEqual(rows.map((r: { name: string }) => r.name), [statementName('select ?::int + 1 as n')]);
  t.is(rows[0].statement, 'select $1::int + 1 as n');
});
