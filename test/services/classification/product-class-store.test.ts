import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { getKnex, closeKnex } from '../../../services/shared/database.js';
import { migrateSchema } from '../../../services/shared/migrations.js';
import { migrations } from '../../../migrations/classification/index.js';
import { ProductClassStore } from '../../../services/classification/product-class-store.js';
import { createTestDatabase } from '../../support/stack.js';

/**
 * The product class memory's store on real Postgres: an accepted note's event is applied once
 * however often it is delivered, and notes of several emission nodes touching the same items at
 * once (in any order) never lose a write or deadlock.
 */
let knex: Knex;
let store: ProductClassStore;
let db: { url: string; drop(): Promise<void> };
const cfg = () => ({ databaseUrl: db.url, pgliteDir: '' });

test.before(async () => {
  db = await createTestDatabase();
  knex = await getKnex(cfg());
  await migrateSchema(knex, 'classification', migrations);
  store = new ProductClassStore(knex, 'classification');
});
test.after.always(async () => {
  if (db) { await closeKnex(cfg()); await db.drop(); }
});

const AT = new Date('2026-11-25T15:00:00Z');

test('an event delivered twice is applied once', async (t) => {
  const issuerId = randomUUID();
  await store.confirm(issuerId, 'SKU', '10063021', '200003', false, AT);
  const id = randomUUID();
  const classes = [{ codigo: 'SKU', ncm: '10063021', cClassTrib: '000001' }];
  t.true(await store.applyAcceptedNote(id, issuerId, classes, AT));
  t.false(await store.applyAcceptedNote(id, issuerId, classes, new Date('2026-11-26T00:00:00Z')));
  t.like((await store.get(issuerId, ['SKU'])).get('SKU'), { cClassTrib: '000001', origem: 'informado', motivo: 'deslocou_confirmada', cClassTribAnterior: '200003', deslocouEm: AT.toISOString() });
});

test('many notes at once on the same items, in opposite orders, all apply without deadlock and the items end recorded', async (t) => {
  const issuerId = randomUUID();
  const codes = ['A', 'B', 'C', 'D'];
  const events = Array.from({ length: 16 }, (_, i) => {
    const order = i % 2 ? [...codes].reverse() : codes;
    return store.applyAcceptedNote(randomUUID(), issuerId, order.map((codigo) => ({ codigo, ncm: '61091000', cClassTrib: '000001' })), AT);
  });
  t.deepEqual(await Promise.all(events), Array(16).fill(true));
  const stored = await store.get(issuerId, codes);
  t.deepEqual([...stored.values()].map((r) => [r.codigo, r.origem, r.cClassTrib]).sort(), codes.map((c) => [c, 'informado', '000001']));
  t.is(Number((await knex('classification.product_classes').where({ issuer_id: issuerId }).count({ n: '*' }))[0]!.n), 4);
});

test('a confirmation racing notes that displace it ends either confirmed or displaced-with-marker, never a lost marker', async (t) => {
  const issuerId = randomUUID();
  await store.confirm(issuerId, 'SKU', '10063021', '200003', false, AT);
  await Promise.all([
    store.applyAcceptedNote(randomUUID(), issuerId, [{ codigo: 'SKU', ncm: '10063021', cClassTrib: '000001' }], AT),
    store.confirm(issuerId, 'SKU', '10063021', '200003', true, AT),
  ]);
  const r = (await store.get(issuerId, ['SKU'])).get('SKU')!;
  const confirmedLast = r.origem === 'contador' && r.motivo === null;
  const displacedLast = r.origem === 'informado' && r.motivo === 'deslocou_confirmada' && r.cClassTribAnterior === '200003';
  t.true(confirmedLast || displacedLast, JSON.stringify(r));
});
