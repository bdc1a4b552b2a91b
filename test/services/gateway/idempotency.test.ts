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
  t.deepEqual((bound as PromiseFulfilledResult<unknown>).value, first);
  // Another body under the key is still refused first, whatever the route.
  await t.throwsAsync(store.begin('p-1', 'POST /v1/nfe', 'K', 'f2', now, 'proceed'), { message: 'Idempotency-Key já usada com outro corpo de requisição.' });
});
