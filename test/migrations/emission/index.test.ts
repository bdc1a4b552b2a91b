import test from 'ava';
import knexLib from 'knex';
import { createTestDatabase } from '../../support/stack.js';
import { migrateSchema } from '../../../services/shared/migrations.js';
import { migrations } from '../../../migrations/emission/index.js';

test('004 widens the status check of a database created before CANCELADA existed, and adds the event and inutilização tables', async (t) => {
  const db = await createTestDatabase();
  const knex = knexLib({ client: 'pg', connection: db.url });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  const before = migrations.findIndex((m) => m.name === '004_fiscal_events_and_inutilizacao');
  t.true(before > 0);
  await migrateSchema(knex, 'emission', migrations.slice(0, before));
  // The constraint as 001 wrote it before this branch.
  await knex.raw(`alter table emission.documents drop constraint documents_status_check`);
  await knex.raw(`alter table emission.documents add constraint documents_status_check check (status in ('CREATED', 'TRANSMITTING', 'AUTHORIZED', 'REJECTED', 'DENEGADA', 'ERROR', 'CONTINGENCIA_PENDENTE'))`);

  t.deepEqual(await migrateSchema(knex, 'emission', migrations.slice(0, before + 1)), ['004_fiscal_events_and_inutilizacao']);
  const defs = await knex.raw(`select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'emission.documents'::regclass and contype = 'c'`);
  t.is(defs.rows.length, 1);
  t.regex(defs.rows[0].def, /'CANCELADA'/);
  t.true(await knex.schema.withSchema('emission').hasTable('document_events'));
  t.true(await knex.schema.withSchema('emission').hasTable('inutilizacoes'));
});
