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

test('010 keeps a key that emitted twice (the defect of issue 20) on its first note, detaches the later ones with a history line, and makes the key unique', async (t) => {
  const db = await createTestDatabase();
  const knex = knexLib({ client: 'pg', connection: db.url });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  const before = migrations.findIndex((m) => m.name === '010_idempotency_key_binding');
  t.true(before > 0);
  await migrateSchema(knex, 'emission', migrations.slice(0, before));
  const issuer = '7c1e0d1a-1a2b-4c3d-8e4f-000000000001';
  const doc = (id: string, number: number, key: string | null, at: string, model = '55') => ({
    id, partner_id: 'p-1', issuer_id: issuer, model, series: 1, number, environment: 2, uf: 'SP', key_kind: 'live', emitted_at: at, status: 'AUTHORIZED',
    amount_cents: 100, request_body: '{}', idempotency_key: key, created_at: at, updated_at: at,
  });
  const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004'];
  await knex('emission.documents').insert([
    doc(ids[1]!, 2, 'K', '2026-11-20T10:00:01Z'), doc(ids[0]!, 1, 'K', '2026-11-20T10:00:00Z'),
    doc(ids[2]!, 1, 'K', '2026-11-20T10:00:02Z', '65'), doc(ids[3]!, 3, null, '2026-11-20T10:00:03Z'),
  ]);

  t.deepEqual(await migrateSchema(knex, 'emission', migrations), ['010_idempotency_key_binding']);
  const keys = await knex('emission.documents').orderBy(['model', 'number']).select('id', 'idempotency_key');
  t.deepEqual(keys.map((r: any) => [r.id, r.idempotency_key]), [[ids[0], 'K'], [ids[1], null], [ids[3], null], [ids[2], 'K']]);
  const history = await knex('emission.document_history').select('document_id', 'from_status', 'to_status', 'trigger', 'detail');
  t.deepEqual(history, [{ document_id: ids[1], from_status: 'AUTHORIZED', to_status: 'AUTHORIZED', trigger: 'migration:010', detail: { idempotencyKey: 'K' } }]);
  const again = knex('emission.documents').insert(doc('00000000-0000-4000-8000-000000000005', 4, 'K', '2026-11-21T10:00:00Z'));
  await t.throwsAsync(again, { message: /documents_idempotency_unique/ });
  t.true(await knex.schema.withSchema('emission').hasColumn('batches', 'idempotency_key'));
});
