import test from 'ava';
import pg from 'pg';
import { captureLogs, startStack } from '../../support/stack.js';

/**
 * Issue 23, defect 6: a Postgres connection killed under the pool printed a bare "Connection
 * Error: …" line outside the JSON log. It is now one structured warning through the node's logger.
 */
test('a killed Postgres connection is logged as one structured warning, and the next query succeeds', async (t) => {
  const logs = captureLogs();
  const stack = await startStack({ nodes: [{ services: ['api-gateway'], env: { LOG_LEVEL: 'warn' }, logDestination: logs.stream }] });
  t.teardown(() => stack.stop());
  await stack.knex.raw('select 1');
  const admin = new pg.Client({ connectionString: stack.config.databaseUrl! });
  await admin.connect();
  const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  await admin.end();
  t.true(killed.rowCount! > 0);
  await new Promise((r) => setTimeout(r, 200)); // the FATAL reaches the idle client
  t.deepEqual((await stack.knex.raw('select 1 as ok')).rows, [{ ok: 1 }]);
  const lost = logs.lines().filter((l) => l.component === 'database');
  t.true(lost.length >= 1, logs.text());
  t.like(lost[0], { level: 40, msg: 'database connection lost; the pool replaces it', mod: 'database' });
  t.regex(lost[0].reason, /terminat|ended unexpectedly/i); // pg's error, or Knex's text when the socket just closed
  t.false(logs.text().includes('Connection Error'), 'the raw Knex text appears only as the reason field');
});
