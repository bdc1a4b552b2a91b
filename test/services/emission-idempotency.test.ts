import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type HttpResult, type Stack } from '../support/stack.js';
import { FakeAuthService } from '../support/fake-auth.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota, startEmissionStack } from '../support/emission-world.js';
import { fakePipeline } from '../support/fake-pipeline.js';
import { bindPipeline } from '../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../services/shared/clock.js';
import { assertUnavailable as unavailable } from '../support/unavailable.js';

/**
 * Issue 20, defect 1: the Idempotency-Key is bound to the document in the emission's numbering
 * transaction, so whatever happens to the gateway's own record (released after a 5xx, taken over
 * after 2 minutes, purged), a retry answers — and when needed carries on — the same document.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;

test.before(async () => { stack = await startEmissionStack(world, clock); });
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => { world.authorizeMode = 'authorize'; world.consultMode = 'lookup'; });

const keyed = (headers: Record<string, string>, key = `pedido-${randomUUID()}`) => ({ ...headers, 'idempotency-key': key });
/** What a 5xx release, a stale takeover or the 24-hour purge leaves of the gateway's record: nothing. */
/**
 * The gateway's records past their 24 hours (API.md, Limits > Idempotency): the next request under
 * a key is new to the gateway, and only the emission's binding still knows the key.
 */
const forgetGatewayRecords = () => stack.knex('gateway.idempotency_keys').update({ expires_at: new Date(clock.now().getTime() - 1) });
/** What a 5xx leaves of the gateway's record: the key free for a retry, known as used. */
const releaseGatewayRecords = () => stack.knex('gateway.idempotency_keys').update({ state: 'released' });
const documentsOf = (partnerId: string) => stack.knex('emission.documents').where({ partner_id: partnerId }).select('id', 'number', 'status', 'idempotency_key');

const assertUnavailable = (t: ExecutionContext, res: HttpResult, details: Record<string, unknown>) => unavailable(t, res, '/v1/nfe', clock.now(), details);
const authorizedEvents = async (id: string) => (await stack.knex('emission.outbox')).filter((r: any) => r.payload.type === 'invoice.authorized' && r.payload.data.invoiceId === id);

test.serial('requests racing past the gateway with one key number one document; every one answers it', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const key = `pedido-${randomUUID()}`;
  const caller = { scheme: 'key', partnerId: p.partnerId, keyKind: 'live' };
  const answers = await Promise.all(Array.from({ length: 6 }, () => stack.nodes[0]!.call('v1.emission.emitNfe', nota(), { meta: { caller, idempotencyKey: key } })));
  const docs = await documentsOf(p.partnerId);
  t.is(docs.length, 1);
  t.deepEqual([...new Set(answers.map((a: any) => `${a.id}:${a.number}`))], [`${docs[0].id}:1`]);
  t.is(Number((await stack.knex('emission.number_sequences').where({ issuer_id: issuer.id }).first()).next_number), 2);
  t.is((await authorizedEvents(docs[0].id)).length, 1);
});

test.serial('a retry after the gateway\'s record expired answers the same document; another body under the key is 422 and numbers nothing', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  const first = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(first.status, 201, first.text);
  await forgetGatewayRecords();
  const calls = world.authorizeCalls.length;

  const again = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(again.status, 201, again.text);
  t.is(again.headers.get('idempotent-replayed'), null); // answered by the emission from its binding
  t.deepEqual(again.body.data, first.body.data);
  t.is(world.authorizeCalls.length, calls);

  await forgetGatewayRecords();
  // A body the gateway has never seen under the key: checked as a new request, then refused at the binding.
  const other = await stack.request('POST', '/v1/nfe', { body: nota({ items: [{ codigo: 'P1', descricao: 'Produto um', cfop: '5102', quantidade: 3, valorUnitario: 10.5 }], pagamentos: [{ forma: '01', valor: 31.5 }] }), headers });
  t.is(other.status, 422, other.text);
  t.deepEqual(other.body, {
    error: {
      type: 'https://errors.test/IDEMPOTENCIA_CORPO_DIVERGENTE', title: 'Unprocessable Entity', status: 422,
      detail: 'Idempotency-Key já usada com outro corpo de requisição.', details: { idempotencyKey: headers['idempotency-key'] },
      instance: '/v1/nfe', requestId: other.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  t.deepEqual((await documentsOf(p.partnerId)).map((d: any) => d.id), [first.body.data.id]);
});

test.serial('a retry after a 5xx released the key looks at the binding before anything: another body is 422 even when it would not validate', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  const first = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(first.status, 201, first.text);
  await releaseGatewayRecords();
  const again = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(again.status, 201, again.text);
  t.is(again.headers.get('idempotent-replayed'), null);
  t.deepEqual(again.body.data, first.body.data);
  await releaseGatewayRecords();
  const other = await stack.request('POST', '/v1/nfe', { body: nota({ informacoesComplementares: 'Outro pedido' }), headers });
  t.is(other.status, 422, other.text);
  t.is(other.body.error.type, 'https://errors.test/IDEMPOTENCIA_CORPO_DIVERGENTE');
  t.deepEqual((await documentsOf(p.partnerId)).map((d: any) => d.id), [first.body.data.id]);
});

test.serial('a key at its first use is not looked for in the emission\'s documents: the numbering insert is what binds it', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const seen: string[] = [];
  const listen = (q: { sql: string }) => { if (/"emission"\."documents"/.test(q.sql)) seen.push(q.sql); };
  stack.knex.on('query', listen);
  try {
    const first = await stack.request('POST', '/v1/nfe', { body: nota(), headers: keyed(p.headers) });
    t.is(first.status, 201, first.text);
  } finally {
    stack.knex.off('query', listen);
  }
  t.true(seen.some((sql) => /insert into "emission"\."documents"/.test(sql)), seen.join('\n'));
  t.deepEqual(seen.filter((sql) => /^select/.test(sql) && /idempotency_key/.test(sql)), []);
  t.is((await documentsOf(p.partnerId)).length, 1);
});

test.serial('an answer lost after the authority processed the note: the retry consults by key and answers AUTHORIZED without sending again', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  world.authorizeMode = 'timeout-after-processing';
  const first = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(first.status, 201, first.text);
  t.is(first.body.data.status, 'TRANSMITTING');
  const calls = world.authorizeCalls.length;
  const consults = world.consultCalls.length;

  world.authorizeMode = 'authorize';
  // Not replayed: the open state changes, so the retry reaches the emission and consults first.
  const retry = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id: first.body.data.id, number: first.body.data.number, status: 'AUTHORIZED', protocol: world.authority.get(first.body.data.accessKey) });
  t.is(world.authorizeCalls.length, calls);
  t.is(world.consultCalls.length, consults + 1);
  t.is((await authorizedEvents(first.body.data.id)).length, 1);
  const replay = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body.data, retry.body.data);
});

test.serial('the database failing after numbering answers 503 naming the document; the retry carries that same document on (passthrough numero: CREATED, then TRANSMITTING)', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  // A new document with no passthrough numero commits TRANSMITTING with its number (store.ts
  // insertCreated); a passthrough numero still commits CREATED first, so this window exists for it.
  const body = { ...nota(), numero: 1 };
  const emission: any = stack.nodes[0]!.getLocalService('v1.emission');
  const markTransmitting = emission.store.markTransmitting;
  emission.store.markTransmitting = async () => { throw Object.assign(new Error('Connection terminated unexpectedly'), {}); };
  t.teardown(() => { emission.store.markTransmitting = markTransmitting; });

  const failed = await stack.request('POST', '/v1/nfe', { body, headers });
  emission.store.markTransmitting = markTransmitting;
  const [doc] = await documentsOf(p.partnerId);
  assertUnavailable(t, failed, { invoiceId: doc.id, status: 'CREATED' });

  // Its creating request may still be about to send it: answered as it is, and not kept for replay.
  const early = await stack.request('POST', '/v1/nfe', { body, headers });
  t.is(early.status, 201, early.text);
  t.like(early.body.data, { id: doc.id, number: 1, status: 'CREATED' });
  t.is(world.authorizeCalls.filter((c) => c.accessKey === early.body.data.accessKey).length, 0);

  clock.advance(121_000); // that request is taken to have died: the retry sends the stored note (same key)
  const carried = await stack.request('POST', '/v1/nfe', { body, headers });
  t.is(carried.status, 201, carried.text);
  t.like(carried.body.data, { id: doc.id, number: 1, status: 'AUTHORIZED', accessKey: early.body.data.accessKey });
  t.is(world.authorizeCalls.filter((c) => c.accessKey === early.body.data.accessKey).length, 1);
  // A passthrough numero leaves the sequence where it was (the next numbered note skips the taken 1).
  t.is(Number((await stack.knex('emission.number_sequences').where({ issuer_id: issuer.id }).first()).next_number), 1);
  t.is((await authorizedEvents(doc.id)).length, 1);
});

test.serial('a connection lost as the numbering commits answers 503; the note was committed TRANSMITTING, never sent, and the retry consults then sends it', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  const emission: any = stack.nodes[0]!.getLocalService('v1.emission');
  // A new note is numbered with the notes of its series that waited with it (store.createNumberedGroup).
  const createNumberedGroup = emission.store.createNumberedGroup;
  // The commit went through; its answer never came back.
  emission.store.createNumberedGroup = async (...args: unknown[]) => {
    await createNumberedGroup.apply(emission.store, args);
    throw new Error('Connection terminated unexpectedly');
  };
  t.teardown(() => { emission.store.createNumberedGroup = createNumberedGroup; });
  const calls = world.authorizeCalls.length;
  const consults = world.consultCalls.length;

  const failed = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  emission.store.createNumberedGroup = createNumberedGroup;
  const [doc] = await documentsOf(p.partnerId);
  assertUnavailable(t, failed, { invoiceId: doc.id, status: 'TRANSMITTING' });
  const accessKey = (await stack.knex('emission.documents').where({ id: doc.id }).first('access_key')).access_key;
  const history = await stack.knex('emission.document_history').where({ document_id: doc.id }).orderBy('id');
  t.deepEqual(history.map((h: any) => [h.from_status, h.to_status, h.trigger, h.detail]), [
    [null, 'CREATED', 'emission', { accessKey, number: 1 }], ['CREATED', 'TRANSMITTING', 'emission', { attempt: 1 }],
  ]);

  // Its transmission's lease is alive: answered as it is, nothing sent.
  const early = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(early.status, 201, early.text);
  t.like(early.body.data, { id: doc.id, number: 1, status: 'TRANSMITTING' });
  t.is(world.authorizeCalls.length, calls);

  clock.advance(121_000); // the lease expired: consulted by key (unknown to the authority), then sent under the same key
  const carried = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(carried.status, 201, carried.text);
  t.like(carried.body.data, { id: doc.id, number: 1, status: 'AUTHORIZED', accessKey });
  t.is(world.authorizeCalls.length, calls + 1);
  t.is(world.consultCalls.length, consults + 1);
  t.is(Number((await stack.knex('emission.number_sequences').where({ issuer_id: issuer.id }).first()).next_number), 2);
  t.is((await authorizedEvents(doc.id)).length, 1);
});

test.serial('a batch POST is bound to its key too: a retry answers the queued batch, another body is 422', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  const body = { notas: [nota(), nota()] };
  const first = await stack.request('POST', '/v1/nfe/batch', { body, headers });
  t.is(first.status, 202, first.text);
  await forgetGatewayRecords();
  const again = await stack.request('POST', '/v1/nfe/batch', { body, headers });
  t.is(again.status, 202, again.text);
  t.is(again.body.data.id, first.body.data.id);
  t.is((await stack.knex('emission.batches').where({ partner_id: p.partnerId })).length, 1);

  await forgetGatewayRecords();
  const other = await stack.request('POST', '/v1/nfe/batch', { body: { notas: [nota()] }, headers });
  t.is(other.status, 422, other.text);
  t.deepEqual(other.body, {
    error: {
      type: 'https://errors.test/IDEMPOTENCIA_CORPO_DIVERGENTE', title: 'Unprocessable Entity', status: 422,
      detail: 'Idempotency-Key já usada com outro corpo de requisição.', details: { idempotencyKey: headers['idempotency-key'] },
      instance: '/v1/nfe/batch', requestId: other.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
});

test.serial('an emission node lost mid-request: the gateway\'s 503 still names the numbered document, found on another node', async (t) => {
  const cluster = await startStack({
    redis: true,
    clock,
    nodes: [{ services: ['api-gateway'], extra: [FakeAuthService, world.issuerService(), world.sefazService()] }, { services: ['emission'] }, { services: ['emission'] }],
  });
  t.teardown(async () => { world.release(); await cluster.stop(); });
  const handled = [0, 0];
  [1, 2].forEach((n, i) => {
    const svc: any = cluster.nodes[n]!.getLocalService('v1.emission');
    const deps = svc.deps.bind(svc);
    svc.deps = (ctx: unknown) => { handled[i]!++; return deps(ctx); };
  });
  const p = partner();
  world.addIssuer(p.partnerId);
  const headers = keyed(p.headers);
  world.authorizeMode = { hold: 'authorize' };
  const calls = world.authorizeCalls.length;
  const pending = cluster.request('POST', '/v1/nfe', { body: nota(), headers });
  await world.authorizeCallsReach(calls + 1);
  const doc = await cluster.knex('emission.documents').where({ partner_id: p.partnerId }).first('id', 'number');
  await cluster.crashNode(handled[0]! ? 1 : 2);

  const lost = await pending;
  assertUnavailable(t, lost, { invoiceId: doc.id, status: 'TRANSMITTING' });
  // The same key through the surviving node: the same document, its lost attempt's lease still alive.
  const retry = await cluster.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id: doc.id, number: doc.number, status: 'TRANSMITTING' });
  t.is((await cluster.knex('emission.documents').where({ partner_id: p.partnerId })).length, 1);
});
