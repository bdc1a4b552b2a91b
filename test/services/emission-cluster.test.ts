import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack } from '../support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../support/fake-auth.js';
import { EmissionWorld } from '../support/emission-world.js';
import { fakePipeline } from '../support/fake-pipeline.js';
import { bindPipeline } from '../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../services/shared/clock.js';
import { closeAllRedis } from '../../services/shared/redis.js';

bindPipeline(fakePipeline);
// The gateway's rate limiter shares one Redis client per process; stack.stop() leaves it open.
test.after.always(() => closeAllRedis());

/** A gateway node with the issuer/sefaz stand-ins, and `emissionNodes` emission nodes, over Redis. */
async function startCluster(emissionNodes: number) {
  const world = new EmissionWorld();
  const clock = new ManualClock('2026-11-22T15:00:00.000Z');
  const stack = await startStack({
    redis: true,
    clock,
    nodes: [
      { services: ['api-gateway'], extra: [FakeAuthService, world.issuerService(), world.sefazService()] },
      ...Array.from({ length: emissionNodes }, () => ({ services: ['emission'] })),
    ],
  });
  return { world, clock, stack };
}

function caller() {
  const partnerId = `p-${randomUUID()}`;
  return { partnerId, headers: { 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'live', rateLimit: 100_000 }) } };
}
const nota = { items: [{ codigo: 'P1', descricao: 'Produto', cfop: '5102', quantidade: 1, valorUnitario: 5 }] };

test.serial('200 concurrent emissions over two emission nodes get 200 distinct consecutive numbers; a batch continues the sequence', async (t) => {
  const { world, clock, stack } = await startCluster(2);
  t.teardown(() => stack.stop());
  const p = caller();
  const issuer = world.addIssuer(p.partnerId);
  const handled = [0, 0];
  [1, 2].forEach((n, i) => {
    const svc: any = stack.nodes[n]!.getLocalService('v1.emission');
    const deps = svc.deps.bind(svc);
    svc.deps = (ctx: unknown) => { handled[i]!++; return deps(ctx); };
  });
  const results = await Promise.all(Array.from({ length: 200 }, () => stack.request('POST', '/v1/nfe', { body: nota, headers: p.headers })));
  t.deepEqual([...new Set(results.map((r) => r.status))], [201]);
  const numbers = results.map((r) => r.body.data.number).sort((a, b) => a - b);
  t.deepEqual(numbers, Array.from({ length: 200 }, (_, i) => i + 1));
  t.is(new Set(results.map((r) => r.body.data.accessKey)).size, 200);
  const seq = await stack.knex('emission.number_sequences').where({ issuer_id: issuer.id }).first();
  t.is(Number(seq.next_number), 201);
  t.true(handled[0]! > 0 && handled[1]! > 0, `requests per node: ${handled}`);
  t.is(handled[0]! + handled[1]!, 200);
  const rows = await stack.knex('emission.document_history').where({ to_status: 'CREATED' }).count('* as n');
  t.is(Number(rows[0]!.n), 200);
  const outbox = await stack.knex('emission.outbox').count('* as n');
  t.is(Number(outbox[0]!.n), 200);

  // A batch is distributed through Redis Streams to both nodes and continues the same sequence.
  const batch = await stack.request('POST', '/v1/nfe/batch', { body: { notas: Array.from({ length: 10 }, () => nota) }, headers: p.headers });
  t.is(batch.status, 202, batch.text);
  let view: any;
  for (let i = 0; i < 100; i++) {
    view = (await stack.request('GET', `/v1/nfe/batch/${batch.body.data.id}`, { headers: p.headers })).body.data;
    if (view.status === 'CONCLUIDO') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.deepEqual(view.contagem, { QUEUED: 0, PROCESSING: 0, COMPLETED: 10, FAILED: 0 });
  t.deepEqual(view.items.map((i: any) => i.resultData.number).sort((a: number, b: number) => a - b), Array.from({ length: 10 }, (_, i) => 201 + i));

  // Reconciliation shared by two nodes at once: every indeterminate document is claimed once.
  world.authorizeMode = 'timeout-after-processing';
  const lost = await Promise.all(Array.from({ length: 20 }, () => stack.request('POST', '/v1/nfe', { body: nota, headers: p.headers })));
  t.deepEqual([...new Set(lost.map((r) => r.body.data.status))], ['TRANSMITTING']);
  clock.advance(121_000);
  const rounds: any[] = await Promise.all([1, 2, 1, 2].map((n) => stack.nodes[n]!.call('v1.emission.reconcileDue', { limit: 5 })));
  const reconciled = rounds.flatMap((r) => r.outcomes);
  t.is(reconciled.length, 20);
  t.is(new Set(reconciled.map((o: any) => o.id)).size, 20);
  t.deepEqual([...new Set(reconciled.map((o: any) => o.status))], ['AUTHORIZED']);
  const authorizedEvents = (await stack.knex('emission.outbox')).filter((r: any) => lost.some((l) => l.body.data.id === r.payload.data.invoiceId));
  t.is(authorizedEvents.length, 20);
});

test.serial('a node stopped between TRANSMITTING and the answer leaves a document a new node reconciles', async (t) => {
  const { world, clock, stack } = await startCluster(1);
  t.teardown(async () => {
    world.release();
    // The stopped node still holds the outstanding call (its 90 s timeout timer would keep the
    // test process alive): end it now that the assertions are done.
    for (const req of (stack.nodes[1] as any).transit.pendingRequests.values()) req.reject(new Error('node stopped'));
    await stack.stop();
  });
  const p = caller();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'hang-after-processing';
  const pending = stack.request('POST', '/v1/nfe', { body: nota, headers: p.headers }).catch((e) => e);
  for (let i = 0; i < 100 && world.authorizeCalls.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  t.is(world.authorizeCalls.length, 1);
  const doc = await stack.knex('emission.documents').first();
  t.is(doc.status, 'TRANSMITTING');

  await stack.stopNode(1); // the emission node dies with the authority's answer outstanding
  await pending;
  world.authorizeMode = 'authorize';

  const fresh = await stack.addNode({ services: ['emission'] });
  t.deepEqual(await stack.nodes[fresh]!.call('v1.emission.reconcileDue', {}), { claimed: 0, outcomes: [] });
  clock.advance(121_000);
  t.deepEqual(await stack.nodes[fresh]!.call('v1.emission.reconcileDue', {}), { claimed: 1, outcomes: [{ id: doc.id, status: 'AUTHORIZED' }] });
  t.is(world.authorizeCalls.length, 1); // found by consult: nothing retransmitted
  const events = (await stack.knex('emission.outbox')).map((r: any) => r.payload);
  t.deepEqual(events.map((e: any) => [e.type, e.data.invoiceId]), [['invoice.authorized', doc.id]]);
  // The gateway learns the new node's routes asynchronously.
  let got = await stack.request('GET', `/v1/nfe/${doc.id}`, { headers: p.headers });
  for (let i = 0; i < 50 && got.status === 404; i++) {
    await new Promise((r) => setTimeout(r, 100));
    got = await stack.request('GET', `/v1/nfe/${doc.id}`, { headers: p.headers });
  }
  t.is(got.status, 200, got.text);
  t.like(got.body.data, { status: 'AUTHORIZED', protocol: world.authority.get(doc.access_key) });
});

test.serial('a resend reaching either emission replica while the first transmission is in flight is refused; one transmission reaches the authority', async (t) => {
  const { world, stack } = await startCluster(2);
  t.teardown(async () => { world.release(); await stack.stop(); });
  const p = caller();
  world.addIssuer(p.partnerId);
  const handled = [0, 0];
  [1, 2].forEach((n, i) => {
    const svc: any = stack.nodes[n]!.getLocalService('v1.emission');
    const deps = svc.deps.bind(svc);
    svc.deps = (ctx: unknown) => { handled[i]!++; return deps(ctx); };
  });
  world.authorizeMode = { hold: 'authorize' };
  const first = stack.request('POST', '/v1/nfe', { body: { ...nota, numero: 500 }, headers: p.headers });
  await world.authorizeCallsReach(1);
  const doc = await stack.knex('emission.documents').where({ number: 500 }).first('id', 'status', 'access_key');
  t.is(doc.status, 'TRANSMITTING');

  // Resends until both replicas have refused at least one (the gateway balances between them).
  const before = [...handled];
  const refused = [];
  for (let i = 0; i < 10 && !(handled[0]! > before[0]! && handled[1]! > before[1]!); i++) {
    refused.push(await stack.request('POST', '/v1/nfe', { body: { ...nota, numero: 500 }, headers: p.headers }));
  }
  t.true(handled[0]! > before[0]! && handled[1]! > before[1]!, `resends per node: ${handled.map((h, i) => h - before[i]!)}`);
  for (const res of refused) {
    t.is(res.status, 409, res.text);
    t.deepEqual(res.body, {
      error: {
        type: 'https://errors.test/DOCUMENTO_EM_TRANSMISSAO', title: 'Conflict', status: 409,
        detail: 'Documento em transmissão para a autoridade fiscal; aguarde o resultado (consulte o documento ou aguarde o webhook) antes de reenviar.',
        details: { invoiceId: doc.id, status: 'TRANSMITTING', numero: 500, serie: 1 },
        instance: '/v1/nfe', requestId: res.headers.get('x-request-id'), timestamp: '2026-11-22T15:00:00.000Z',
      },
    });
  }
  t.is(world.authorizeCalls.length, 1);

  world.release();
  const done = await first;
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { id: doc.id, status: 'AUTHORIZED', number: 500 });
  t.is(world.authorizeCalls.filter((c) => c.accessKey === doc.access_key).length, 1);
  const events = (await stack.knex('emission.outbox')).map((r: any) => r.payload);
  t.deepEqual(events.map((e: any) => [e.type, e.data.invoiceId]), [['invoice.authorized', doc.id]]);
});
