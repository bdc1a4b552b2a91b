import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase } from '../../../support/stack.js';
import { closeKnex, getKnex } from '../../../../services/shared/database.js';
import { migrateSchema } from '../../../../services/shared/migrations.js';
import { migrations } from '../../../../migrations/simulator/index.js';
import { SefinStore, type NfseRow } from '../../../../services/sefaz/simulator/sefin/store.js';

/**
 * SefinStore.generateNfse (issue 18): the DPS lock, the E0014 look-up and both numbers in one call
 * (migration 072), the insert in the same transaction; nNFSe per issuer and environment with no
 * number used twice or skipped, also when the same DPS is sent twice at once.
 */
let knex: Knex;
let drop: () => Promise<void>;
let store: SefinStore;
test.before(async () => {
  const db = await createTestDatabase();
  drop = db.drop;
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 6 } });
  await migrateSchema(knex, 'simulator', migrations);
  store = new SefinStore(knex);
});
test.after.always(async () => { await knex?.destroy(); await drop?.(); });

const at = new Date('2026-03-02T12:00:00Z');
const idDps = (cnpj: string, n: number) => `DPS35503082${cnpj}00001${String(n).padStart(15, '0')}`;
const rowOf = (id: string, cnpj: string, tpAmb: number) => ({ nNFSe, nDFSe }: { nNFSe: number; nDFSe: number }): NfseRow => ({
  chave_acesso: `3550308${cnpj}${String(nNFSe).padStart(13, '0')}${String(nDFSe).padStart(16, '0')}`.slice(0, 50),
  id_dps: id, tp_amb: tpAmb, cnpj_cpf: cnpj, n_nfse: String(nNFSe), status: 'gerada', processed_at: at, nfse_xml: `<NFSe n="${nNFSe}" d="${nDFSe}"/>`,
});

test.serial('generateNfse numbers per issuer and environment, answers the first NFS-e of a DPS sent again, and sends two round trips (BEGIN with the reservation, the insert with COMMIT)', async (t) => {
  const a = '11222333000181';
  const b = '22333444000192';
  const statements: string[] = [];
  const listener = (q: { sql: string }) => statements.push(q.sql);
  knex.on('query', listener);
  const first = await store.generateNfse(idDps(a, 1), 2, a, rowOf(idDps(a, 1), a, 2));
  knex.off('query', listener);
  t.deepEqual(statements.map((s) => s.replace(/\s+/g, ' ').slice(0, 20)), ['begin; select existi', 'insert into "simulat']);
  t.regex(statements[1]!, /; commit$/);
  t.true('row' in first);
  const second = await store.generateNfse(idDps(a, 2), 2, a, rowOf(idDps(a, 2), a, 2));
  const other = await store.generateNfse(idDps(b, 1), 2, b, rowOf(idDps(b, 1), b, 2));
  const production = await store.generateNfse(idDps(a, 1), 1, a, rowOf(idDps(a, 1), a, 1));
  const numbers = [first, second, other, production].map((o) => ('row' in o ? o.row.n_nfse : o.duplicate));
  t.deepEqual(numbers, ['1', '2', '1', '1']);
  const again = await store.generateNfse(idDps(a, 2), 2, a, () => t.fail('a DPS already generated builds nothing') as never);
  t.deepEqual(again, { duplicate: ('row' in second && second.row.chave_acesso) || '' });
  t.deepEqual((await store.byChave(('row' in second && second.row.chave_acesso) || ''))?.nfse_xml, 'row' in second ? second.row.nfse_xml : undefined);
  const third = await store.generateNfse(idDps(a, 3), 2, a, rowOf(idDps(a, 3), a, 2));
  t.is('row' in third && third.row.n_nfse, '3', 'the duplicate used no number');
});

test.serial('generateNfse: the same DPS sent twice at once generates one NFS-e and uses one number', async (t) => {
  const c = '33444555000103';
  const id = idDps(c, 9);
  const outcomes = await Promise.all([1, 2, 3].map(() => store.generateNfse(id, 2, c, rowOf(id, c, 2))));
  const rows = outcomes.filter((o) => 'row' in o);
  t.is(rows.length, 1);
  const chave = 'row' in rows[0]! ? rows[0].row.chave_acesso : '';
  t.deepEqual(outcomes.filter((o) => 'duplicate' in o), [{ duplicate: chave }, { duplicate: chave }]);
  const next = await store.generateNfse(idDps(c, 10), 2, c, rowOf(idDps(c, 10), c, 2));
  t.is('row' in next && next.row.n_nfse, '2');
  t.is(Number((await knex('simulator.sefin_nfse').where({ cnpj_cpf: c }).count('* as n'))[0]!.n), 2);
});

test.serial('generateNfse: a build that throws rolls back, leaving no number used', async (t) => {
  const d = '44555666000114';
  await t.throwsAsync(store.generateNfse(idDps(d, 1), 2, d, () => { throw new Error('signing failed'); }), { message: 'signing failed' });
  const ok = await store.generateNfse(idDps(d, 1), 2, d, rowOf(idDps(d, 1), d, 2));
  t.is('row' in ok && ok.row.n_nfse, '1');
});

test.serial('generateNfse on PGlite (knex transaction path): numbers, the duplicate answer and the rollback as on Postgres', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-sefin-'));
  const cfg = { databaseUrl: null, pgliteDir: dir };
  const lite = await getKnex(cfg);
  t.teardown(async () => { await closeKnex(cfg); rmSync(dir, { recursive: true, force: true }); });
  await migrateSchema(lite, 'simulator', migrations);
  const liteStore = new SefinStore(lite);
  const e = '55666777000125';
  await t.throwsAsync(liteStore.generateNfse(idDps(e, 1), 2, e, () => { throw new Error('signing failed'); }), { message: 'signing failed' });
  const first = await liteStore.generateNfse(idDps(e, 1), 2, e, rowOf(idDps(e, 1), e, 2));
  const second = await liteStore.generateNfse(idDps(e, 2), 2, e, rowOf(idDps(e, 2), e, 2));
  const again = await liteStore.generateNfse(idDps(e, 1), 2, e, rowOf(idDps(e, 1), e, 2));
  t.deepEqual([first, second].map((o) => 'row' in o && o.row.n_nfse), ['1', '2']);
  t.deepEqual(again, { duplicate: 'row' in first ? first.row.chave_acesso : '' });
  t.is((await liteStore.byChave('row' in second ? second.row.chave_acesso : ''))?.nfse_xml, 'row' in second ? second.row.nfse_xml : undefined);
});
