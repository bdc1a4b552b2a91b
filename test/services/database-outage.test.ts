import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../support/stack.js';
import { startPgProxy, type PgProxy } from '../support/pg-proxy.js';
import { FakeAuthService } from '../support/fake-auth.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota } from '../support/emission-world.js';
import { fakePipeline } from '../support/fake-pipeline.js';
import { bindPipeline } from '../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../services/shared/clock.js';

/**
 * Issue 20, defect 7: with the database down, every answer is the 503 SERVICE_UNAVAILABLE
 * envelope with Retry-After — in-flight and new requests alike, never a 500 or an empty body —
 * and a request whose note was numbered names it. The outage is a proxy between this file's
 * nodes and PostgreSQL (test/support/pg-proxy.ts); the shared server never stops.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;
let proxy: PgProxy;

test.before(async () => {
  stack = await startStack({
    clock,
    nodes: [{ services: ['api-gateway', 'emission'], extra: [FakeAuthService, world.issuerService(), world.sefazService()] }],
    databaseUrlVia: async (url) => { proxy = await startPgProxy(url); return proxy.url; },
  });
});
test.after.always(async () => {
  await proxy?.restore().catch(() => undefined);
  await stack?.stop();
  await proxy?.close();
});

function unavailable(res: { headers: Headers }, instance: string, extra: Record<string, unknown> = {}, detail = 'Serviço temporariamente indisponível.') {
  return {
    error: {
      type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail, ...extra,
      instance, requestId: res.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  };
}

test.serial('the database going away answers 503 SERVICE_UNAVAILABLE with Retry-After to the request in flight (naming its note) and to new ones; back, the same key carries the note on', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const headers = { ...p.headers, 'idempotency-key': `pedido-${randomUUID()}` };
  world.authorizeMode = { hold: 'authorize' };
  const inFlight = stack.request('POST', '/v1/nfe', { body: nota(), headers });
  await world.authorizeCallsReach(1);
  const doc = await stack.knex('emission.documents').where({ partner_id: p.partnerId }).first('id', 'number', 'status');
  t.is(doc.status, 'TRANSMITTING');

  await proxy.cut();
  world.release(); // the authority answers; storing its answer finds no database
  const lost = await inFlight;
  t.is(lost.status, 503, lost.text);
  t.is(lost.headers.get('retry-after'), '5');
  t.deepEqual(lost.body, unavailable(lost, '/v1/nfe', { details: { invoiceId: doc.id, status: 'TRANSMITTING' } }));

  for (const h of [p.headers, { ...p.headers, 'idempotency-key': `pedido-${randomUUID()}` }]) {
    const fresh = await stack.request('POST', '/v1/nfe', { body: nota(), headers: h });
    t.is(fresh.status, 503, fresh.text);
    t.is(fresh.headers.get('retry-after'), '5');
    t.deepEqual(fresh.body, unavailable(fresh, '/v1/nfe'));
  }
  const read = await stack.request('GET', `/v1/nfe/${doc.id}`, { headers: p.headers });
  t.is(read.status, 503, read.text);
  t.deepEqual(read.body, unavailable(read, `/v1/nfe/${doc.id}`));
  const health = await stack.request('GET', '/health');
  t.is(health.status, 503);
  t.is(health.headers.get('retry-after'), '5');
  t.deepEqual(health.body, unavailable(health, '/health', { details: { checks: { database: { status: 'down', kind: 'postgres' }, broker: health.body.error.details.checks.broker } } }, 'Dependência indisponível: database.'));

  await proxy.restore();
  world.authorizeMode = 'authorize';
  clock.advance(121_000); // the lost attempt's lease ends: the retry consults by key and settles on what the authority holds
  const retry = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id: doc.id, number: doc.number, status: 'AUTHORIZED' });
  t.is(world.authorizeCalls.length, 1);
  t.is((await stack.knex('emission.documents').where({ partner_id: p.partnerId })).length, 1);
  t.is((await stack.request('GET', '/health')).status, 200);
});
