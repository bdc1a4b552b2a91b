import test from 'ava';
import { migratedBefore } from '../../support/migration-db.js';
import { migrateSchema } from '../../../services/shared/migrations.js';
import { migrations } from '../../../migrations/emission/index.js';

test('063 flags the partners that emitted only NFS-e, and names a DPS older than the document a flag named', async (t) => {
  const { knex, at } = await migratedBefore(t, 'emission', migrations, '063_nfse_partner_first_documents');
  const issuer = '00000000-0000-4000-8000-000000000001';
  const id = (n: number) => `00000000-0000-4000-9000-00000000000${n}`;
  const dps = (n: number, partner: string, created: string, status = 'AUTHORIZED') => ({
    id: id(n), partner_id: partner, issuer_id: issuer, serie: 1, n_dps: n, environment: 2, key_kind: 'live', id_dps: `DPS${String(n).padStart(42, '0')}`,
    codigo_municipio: '3550308', emitted_at: created, status, amount_cents: 100, request_body: '{}', dps_xml: '<DPS/>', avisos: '[]', alertas: '[]',
    created_at: created, updated_at: created,
  });
  // p1 emitted only NFS-e (its first DPS rejected: a document all the same, as 050 counts NF-e);
  // p2's NF-e came before its DPS; p3's NF-e after it; p4 has an NF-e and no DPS.
  await knex('emission.nfse_documents').insert([
    dps(2, 'p1', '2026-03-01T00:00:00Z'), dps(1, 'p1', '2026-02-01T00:00:00Z', 'REJECTED'),
    dps(3, 'p2', '2026-05-01T00:00:00Z'), dps(4, 'p3', '2026-01-01T00:00:00Z'),
  ]);
  const nfe = (n: number) => `00000000-0000-4000-a000-00000000000${n}`;
  await knex('emission.partner_first_documents').insert([
    { partner_id: 'p2', document_id: nfe(2), created_at: '2026-04-01T00:00:00Z' },
    { partner_id: 'p3', document_id: nfe(3), created_at: '2026-04-01T00:00:00Z' },
    { partner_id: 'p4', document_id: nfe(4), created_at: '2026-04-01T00:00:00Z' },
  ]);

  t.deepEqual(await migrateSchema(knex, 'emission', migrations), migrations.slice(at).map((m) => m.name));
  const flags = await knex('emission.partner_first_documents').orderBy('partner_id').select('partner_id', 'document_id', 'created_at');
  t.deepEqual(flags.map((f: any) => [f.partner_id, f.document_id, new Date(f.created_at).toISOString()]), [
    ['p1', id(1), '2026-02-01T00:00:00.000Z'],
    ['p2', nfe(2), '2026-04-01T00:00:00.000Z'],
    ['p3', id(4), '2026-01-01T00:00:00.000Z'],
    ['p4', nfe(4), '2026-04-01T00:00:00.000Z'],
  ]);
});
