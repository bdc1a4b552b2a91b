import test from 'ava';
import knexLib from 'knex';
import { IdempotencyStore, isReplayable } from '../../../services/gateway/idempotency.js';
import { createTestDatabase } from '../../support/stack.js';
import { migrateSchema } from '../../../services/shared/migrations.js';
import { migrations } from '../../../migrations/gateway/index.js';

test('isReplayable keeps deterministic answers and never a passing moment or a 5xx', (t) => {
  t.true(isReplayable(200));
  t.true(isReplayable(422, 'DOCUMENTO_NAO_CANCELAVEL'));
  t.true(isReplayable(409, 'FAIXA_JA_INUTILIZADA'));
  for (const code of ['DOCUMENTO_EM_TRANSMISSAO', 'IDEMPOTENCIA_EM_ANDAMENTO', 'EVENTO_EM_TRANSMISSAO', 'EVENTO_PENDENTE']) t.false(isReplayable(409, code), code);
  t.false(isReplayable(503, 'AUTORIDADE_INDISPONIVEL'));
});

test('begin on a key still processing: a document route proceeds to its action after the wait, any other answers 409 IDEMPOTENCIA_EM_ANDAMENTO', async (t) => {
  const db = await createTestDatabase();
  const knex = knexLib({ client: 'pg', connection: db.url });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  await migrateSchema(knex, 'gateway', migrations);
  const store = new IdempotencyStore(knex, 'gateway.idempotency_keys');
  const now = () => new Date('2026-11-22T15:00:00Z');
  const first = await store.begin('p-1', 'POST /v1/nfe', 'K', 'f1', now);
  t.is(first.kind, 'proceed');
  const [busy, bound] = await Promise.allSettled([
    store.begin('p-1', 'POST /v1/nfe', 'K', 'f1', now, 'refuse'),
    store.begin('p-1', 'POST /v1/nfe', 'K', 'f1', now, 'proceed'),
  ]);
  t.like((busy as PromiseRejectedResult).reason, { type: 'IDEMPOTENCIA_EM_ANDAMENTO', code: 409, data: { idempotencyKey: 'K' } });
  t.deepEqual(first, { kind: 'proceed', id: (first as { id: number }).id, firstUse: true });
  t.deepEqual((bound as PromiseFulfilledResult<unknown>).value, { ...first, firstUse: false }, 'the same record, and the key is not at its first use');
  // Another body under the key is still refused first, whatever the route.
  await t.throwsAsync(store.begin('p-1', 'POST /v1/nfe', 'K', 'f2', now, 'proceed'), { message: 'Idempotency-Key já usada com outro corpo de requisição.' });
});

test('a released key runs again as a new request (any body), but is no longer at its first use; an expired one is', async (t) => {
  const db = await createTestDatabase();
  const knex = knexLib({ client: 'pg', connection: db.url });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  await migrateSchema(knex, 'gateway', migrations);
  const store = new IdempotencyStore(knex, 'gateway.idempotency_keys');
  let at = new Date('2026-11-22T15:00:00Z');
  const now = () => at;
  const first = await store.begin('p-1', 'POST /v1/nfe', 'K', 'f1', now, 'proceed');
  t.like(first, { kind: 'proceed', firstUse: true });
  // A 5xx: nothing kept for replay, the key free again, its row kept as used.
  await store.settle((first as { id: number }).id, false, 503, { error: {} });
  t.like(await knex('gateway.idempotency_keys').where({ key: 'K' }).first(), { state: 'released', fingerprint: 'f1' });
  at = new Date(at.getTime() + 60_000);
  const retry = await store.begin('p-1', 'POST /v1/nfe', 'K', 'f2', now, 'proceed');
  t.deepEqual(retry, { kind: 'proceed', id: (first as { id: number }).id, firstUse: false });
  t.like(await knex('gateway.idempotency_keys').where({ key: 'K' }).first(), { state: 'processing', fingerprint: 'f2' });
  await store.settle((retry as { id: number }).id, true, 201, { data: { id: 'n-1' } });
  t.deepEqual(await store.begin('p-1', 'POST /v1/nfe', 'K', 'f2', now, 'proceed'), { kind: 'replay', status: 201, body: { data: { id: 'n-1' } } });
  // Past its 24 hours the key is unknown again: a first use.
  at = new Date(at.getTime() + 25 * 3600_000);
  t.like(await store.begin('p-1', 'POST /v1/nfe', 'K', 'f3', now, 'proceed'), { kind: 'proceed', firstUse: true });
});
