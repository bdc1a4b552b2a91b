import test from 'ava';
import knexLib from 'knex';
import { createTestDatabase } from '../../support/stack.js';
import { migratedBefore } from '../../support/migration-db.js';
import { migrateSchema } from '../../../services/shared/migrations.js';
import { migrations } from '../../../migrations/emission/index.js';

test('004 widens the status check of a database created before CANCELADA existed, and adds the event and inutilização tables', async (t) => {
  const { knex, at: before } = await migratedBefore(t, 'emission', migrations, '004_fiscal_events_and_inutilizacao');
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
  const { knex, at: before } = await migratedBefore(t, 'emission', migrations, '010_idempotency_key_binding');
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

  t.deepEqual(await migrateSchema(knex, 'emission', migrations.slice(0, before + 1)), ['010_idempotency_key_binding']);
  const keys = await knex('emission.documents').orderBy(['model', 'number']).select('id', 'idempotency_key');
  t.deepEqual(keys.map((r: any) => [r.id, r.idempotency_key]), [[ids[0], 'K'], [ids[1], null], [ids[3], null], [ids[2], 'K']]);
  const history = await knex('emission.document_history').select('document_id', 'from_status', 'to_status', 'trigger', 'detail');
  t.deepEqual(history, [{ document_id: ids[1], from_status: 'AUTHORIZED', to_status: 'AUTHORIZED', trigger: 'migration:010', detail: { idempotencyKey: 'K' } }]);
  const again = knex('emission.documents').insert(doc('00000000-0000-4000-8000-000000000005', 4, 'K', '2026-11-21T10:00:00Z'));
  await t.throwsAsync(again, { message: /documents_idempotency_unique/ });
  t.true(await knex.schema.withSchema('emission').hasColumn('batches', 'idempotency_key'));
});

test('050 backfills the first-document flag per partner and moves the sequence of a CNPJ registered again past its earlier numbers', async (t) => {
  const db = await createTestDatabase();
  const knex = knexLib({ client: 'pg', connection: db.url });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  const first050 = migrations.findIndex((m) => m.name.startsWith('050_'));
  t.true(first050 > 0);
  await migrateSchema(knex, 'emission', migrations.slice(0, first050));
  const cnpj = '11222333000181';
  const [oldIssuer, newIssuer, otherIssuer] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
  const key = (c: string, n: number) => `352611${c}55001${String(n).padStart(9, '0')}1${'12345678'}0`;
  const doc = (id: number, partner: string, issuer: string, number: number, c = cnpj, created = `2026-0${id}-01T00:00:00Z`) => ({
    id: `00000000-0000-4000-9000-00000000000${id}`, partner_id: partner, issuer_id: issuer, model: '55', series: 1, number, environment: 2, uf: 'SP',
    key_kind: 'live', access_key: key(c, number), emitted_at: created, status: 'AUTHORIZED', amount_cents: 100, request_body: '{}', created_at: created, updated_at: created,
  });
  // The bug of issue 23: the CNPJ registered again restarted at 1 (its note 1 was then refused with 539).
  await knex('emission.documents').insert([
    doc(1, 'p1', oldIssuer, 1), doc(2, 'p1', oldIssuer, 2), doc(3, 'p1', oldIssuer, 3),
    { ...doc(4, 'p2', newIssuer, 1), status: 'REJECTED' },
    doc(5, 'p3', otherIssuer, 1, '11444777000161'),
  ]);
  // An earlier row of the CNPJ that only inutilized 4-9 (its CNPJ only in the ProcInutNFe).
  const inutOnly = '00000000-0000-4000-8000-000000000004';
  await knex('emission.inutilizacoes').insert({
    id: '00000000-0000-4000-a000-000000000001', partner_id: 'p0', issuer_id: inutOnly, model: '55', series: 1, environment: 2, start_number: 4, end_number: 9,
    justificativa: 'Numeracao pulada por falha', status: 'HOMOLOGATED', proc_xml: `<ProcInutNFe><inutNFe><infInut><CNPJ>${cnpj}</CNPJ></infInut></inutNFe></ProcInutNFe>`,
    created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
  });
  await knex('emission.number_sequences').insert([
    { issuer_id: oldIssuer, model: '55', series: 1, environment: 2, next_number: 4 },
    { issuer_id: newIssuer, model: '55', series: 1, environment: 2, next_number: 2 },
    { issuer_id: otherIssuer, model: '55', series: 1, environment: 2, next_number: 2 },
  ]);

  t.deepEqual(await migrateSchema(knex, 'emission', migrations), migrations.slice(first050).map((m) => m.name));
  const sequences = await knex('emission.number_sequences').orderBy('issuer_id').select('issuer_id', 'next_number');
  t.deepEqual(sequences, [{ issuer_id: oldIssuer, next_number: 10 }, { issuer_id: newIssuer, next_number: 10 }, { issuer_id: otherIssuer, next_number: 2 }]);
  t.deepEqual(await knex('emission.issuer_fiscal_identities').orderBy('issuer_id').select(), [
    { issuer_id: oldIssuer, cnpj }, { issuer_id: newIssuer, cnpj }, { issuer_id: otherIssuer, cnpj: '11444777000161' }, { issuer_id: inutOnly, cnpj },
  ]);
  const flags = await knex('emission.partner_first_documents').orderBy('partner_id').select('partner_id', 'document_id');
  t.deepEqual(flags, [
    { partner_id: 'p1', document_id: doc(1, '', '', 0).id }, { partner_id: 'p2', document_id: doc(4, '', '', 0).id }, { partner_id: 'p3', document_id: doc(5, '', '', 0).id },
  ]);
});

test('064 compresses the documents\' XML and requests with lz4 on a server built with it, and a stored value says so', async (t) => {
  const { knex, at } = await migratedBefore(t, 'emission', migrations, '064_xml_lz4');
  const methods = async () => (await knex.raw(`select c.relname || '.' || a.attname as col, a.attcompression as method from pg_attribute a join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'emission' and a.attcompression <> '' order by 1`)).rows;
  t.deepEqual(await methods(), []);

  t.deepEqual(await migrateSchema(knex, 'emission', migrations.slice(0, at + 1)), ['064_xml_lz4']);
  t.deepEqual(await methods(), [
    'contingency_holds.signed_xml', 'document_events.proc_xml', 'document_keys.signed_xml',
    'documents.authorized_xml', 'documents.request_body', 'documents.transmitted_xml',
    'inutilizacoes.proc_xml', 'nfse_documents.dps_xml', 'nfse_documents.nfse_xml', 'nfse_documents.request_body',
    'nfse_events.event_xml', 'nfse_events.request_xml',
  ].map((col) => ({ col, method: 'l' })));
  // A value past the size Postgres compresses: stored with lz4.
  const xml = `<NFe>${'<det><prod><xProd>Produto</xProd></prod></det>'.repeat(200)}</NFe>`;
  await knex('emission.documents').insert({
    id: '00000000-0000-4000-8000-000000000001', partner_id: 'p-1', issuer_id: '7c1e0d1a-1a2b-4c3d-8e4f-000000000001', model: '55', series: 1, number: 1,
    environment: 2, uf: 'SP', key_kind: 'live', emitted_at: '2026-11-26T10:00:00Z', status: 'CREATED', amount_cents: 100, request_body: '{}',
    transmitted_xml: xml, created_at: '2026-11-26T10:00:00Z', updated_at: '2026-11-26T10:00:00Z',
  });
  const stored = await knex.raw(`select pg_column_compression(transmitted_xml) as method, transmitted_xml = ? as same from emission.documents`, [xml]);
  t.deepEqual(stored.rows, [{ method: 'lz4', same: true }]);
});

test('064 leaves a server without lz4 (PGlite) as it was', async (t) => {
  const { default: ClientPgLite } = await import('knex-pglite');
  const knex = knexLib({ client: ClientPgLite as any, dialect: 'postgres', connection: {} } as any);
  t.teardown(() => knex.destroy());
  await migrateSchema(knex, 'emission', migrations);
  const compressed = await knex.raw(`select count(*)::int as n from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'emission' and a.attcompression <> ''`);
  t.deepEqual(compressed.rows, [{ n: 0 }]);
});

test('074 keeps every count made before it, in slot 0, and lets one counter grow in several slots', async (t) => {
  const { knex, at: before } = await migratedBefore(t, 'emission', migrations, '074_billing_counter_slots');
  const counter = { partner_id: 'p-1', period: '2026-11', model: '55', environment: 2, key_kind: 'live', billable: true };
  await knex('emission.billing_counters').insert([{ ...counter, count: 41 }, { ...counter, key_kind: 'test', billable: false, count: 3 }]);

  t.deepEqual(await migrateSchema(knex, 'emission', migrations.slice(0, before + 1)), ['074_billing_counter_slots']);
  t.deepEqual(await knex('emission.billing_counters').orderBy('key_kind').select('key_kind', 'slot', 'count'), [
    { key_kind: 'live', slot: 0, count: 41 }, { key_kind: 'test', slot: 0, count: 3 },
  ]);
  await knex('emission.billing_counters').insert({ ...counter, slot: 5, count: 1 });
  const again = knex('emission.billing_counters').insert({ ...counter, slot: 5, count: 1 });
  await t.throwsAsync(again, { message: /billing_counters_pkey/ }, 'a counter and slot is still one row');
});
