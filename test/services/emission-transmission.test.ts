import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Stack } from '../support/stack.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota, startEmissionStack } from '../support/emission-world.js';
import { fakePipeline } from '../support/fake-pipeline.js';
import { bindPipeline } from '../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../services/shared/clock.js';
import { TRANSMISSION_LEASE_MS } from '../../lib/emission/transmission.js';

/**
 * One transmission of a document in flight at a time (lib/emission/transmission.ts): a resend or a
 * reconciliation never starts a second one while the first holds its lease, and the answer of an
 * older attempt never overwrites what a newer one stored. The authority stand-in holds a call in
 * flight (`{ hold: mode }`) until `world.release()`.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;

test.before(async () => {
  stack = await startEmissionStack(world, clock);
});
test.after.always(async () => { world.release(); await stack?.stop(); });
test.beforeEach(() => { world.authorizeMode = 'authorize'; world.consultMode = 'lookup'; });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const IN_FLIGHT = 'Documento em transmissão para a autoridade fiscal; aguarde o resultado (consulte o documento ou aguarde o webhook) antes de reenviar.';

const corrected = (numero?: number) => nota({ ...(numero ? { numero } : {}), items: [{ codigo: 'P1', descricao: 'Produto corrigido', cfop: '5102', quantidade: 3, valorUnitario: 10 }], pagamentos: [{ forma: '01', valor: 30 }] });

/** The whole 409 envelope of a refused second transmission. */
function assertInFlight(t: any, res: any, doc: { id: string; number: number }, instance = '/v1/nfe') {
  t.is(res.status, 409, res.text);
  t.is(res.body.error.requestId, res.headers.get('x-request-id'));
  t.regex(res.body.error.timestamp, ISO);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/DOCUMENTO_EM_TRANSMISSAO', title: 'Conflict', status: 409, detail: IN_FLIGHT,
      details: { invoiceId: doc.id, status: 'TRANSMITTING', numero: doc.number, serie: 1 },
      instance, requestId: res.body.error.requestId, timestamp: res.body.error.timestamp,
    },
  });
}

async function documentRow(where: Record<string, unknown>) {
  return stack.knex('emission.documents').where(where).first('id', 'number', 'status', 'transmissions', 'transmitting_until', 'amount_cents', 'access_key', 'transmitted_xml', 'erros');
}

async function eventsOf(invoiceId: string) {
  const rows = await stack.knex('emission.outbox').orderBy('created_at');
  return rows.map((r: any) => r.payload).filter((p: any) => p.data.invoiceId === invoiceId);
}

test.serial('a resend while the first transmission is in flight answers 409 DOCUMENTO_EM_TRANSMISSAO and sends nothing; the first ends normally', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const calls = world.authorizeCalls.length;
  world.authorizeMode = { hold: 'authorize' };
  const first = stack.request('POST', '/v1/nfe', { body: nota({ numero: 91 }), headers: p.headers });
  await world.authorizeCallsReach(calls + 1);

  const held = await documentRow({ issuer_id: issuer.id, number: 91 });
  t.like(held, { status: 'TRANSMITTING', transmissions: 1 });
  t.deepEqual(new Date(held.transmitting_until), new Date(clock.now().getTime() + TRANSMISSION_LEASE_MS));

  const resend = await stack.request('POST', '/v1/nfe', { body: corrected(91), headers: p.headers });
  assertInFlight(t, resend, { id: held.id, number: 91 });
  t.is(world.authorizeCalls.length, calls + 1);
  // The refused resend changed nothing: same attempt, same stored content.
  t.like(await documentRow({ id: held.id }), { status: 'TRANSMITTING', transmissions: 1, amount_cents: '2100', transmitted_xml: held.transmitted_xml });

  world.release();
  const done = await first;
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { id: held.id, status: 'AUTHORIZED', number: 91, amount: '21.00' });
  t.is(world.authorizeCalls.filter((c) => c.accessKey === held.access_key).length, 1);
  t.deepEqual((await eventsOf(held.id)).map((e: any) => e.type), ['invoice.authorized']);
  t.like(await documentRow({ id: held.id }), { transmitting_until: null });
  const history = await stack.knex('emission.document_history').where({ document_id: held.id }).orderBy('id').select('to_status', 'trigger');
  t.deepEqual(history.map((h: any) => [h.to_status, h.trigger]), [['CREATED', 'emission'], ['TRANSMITTING', 'emission'], ['AUTHORIZED', 'authorization:authorized']]);
});

test.serial('two resends racing for one document: the row lock lets exactly one transmit, the other answers 409', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  world.authorizeMode = 'fail-before-send';
  const failed = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 92 }), headers: p.headers });
  t.like(failed.body.data, { status: 'ERROR', number: 92 });
  const key = failed.body.data.accessKey;
  const calls = world.authorizeCalls.length;

  world.authorizeMode = { hold: 'authorize' };
  const racing = [1, 2].map(() => stack.request('POST', '/v1/nfe', { body: corrected(92), headers: p.headers }));
  await world.authorizeCallsReach(calls + 1);
  // Give the loser time to reach the authority too, if anything let it.
  await new Promise((r) => setTimeout(r, 300));
  world.release();
  const answers = await Promise.all(racing);

  t.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
  const won = answers.find((a) => a.status === 201)!;
  t.like(won.body.data, { id: failed.body.data.id, status: 'AUTHORIZED', amount: '30.00' });
  assertInFlight(t, answers.find((a) => a.status === 409), { id: failed.body.data.id, number: 92 });
  t.is(world.authorizeCalls.length, calls + 1);
  t.like(await documentRow({ issuer_id: issuer.id, number: 92 }), { status: 'AUTHORIZED', transmissions: 2 });
  t.deepEqual((await eventsOf(failed.body.data.id)).map((e: any) => e.type), ['invoice.authorized']);
  t.is(world.authorizeCalls.filter((c) => c.accessKey === key).length, 2); // the failed first attempt and the winner
});

test.serial('reconciliation leaves a document whose transmission lease is alive, even when due, and takes it over once the lease expired', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const calls = world.authorizeCalls.length;
  world.authorizeMode = { hold: 'authorize' };
  const first = stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  await world.authorizeCallsReach(calls + 1);
  const doc = await documentRow({ access_key: world.authorizeCalls.at(-1)!.accessKey });
  const consults = world.consultCalls.length;

  // Due by its schedule, but a live request still holds it.
  await stack.knex('emission.documents').where({ id: doc.id }).update({ next_check_at: new Date(clock.now().getTime() - 1_000) });
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.reconcileDue', {}), { claimed: 0, outcomes: [] });
  clock.advance(TRANSMISSION_LEASE_MS - 1_000);
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.reconcileDue', {}), { claimed: 0, outcomes: [] });
  t.is(world.consultCalls.length, consults);

  // The lease expired: the request is presumed lost; reconciliation consults (not found) and retransmits.
  clock.advance(1_000);
  world.authorizeMode = 'authorize';
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.reconcileDue', {}), { claimed: 1, outcomes: [{ id: doc.id, status: 'AUTHORIZED' }] });
  t.is(world.consultCalls.length, consults + 1);
  t.like(await documentRow({ id: doc.id }), { status: 'AUTHORIZED', transmissions: 2, transmitting_until: null });

  // The old attempt answers at last: the document keeps its one outcome and its one event.
  world.release();
  const late = await first;
  t.is(late.status, 201, late.text);
  t.like(late.body.data, { id: doc.id, status: 'AUTHORIZED' });
  t.deepEqual((await eventsOf(doc.id)).map((e: any) => e.type), ['invoice.authorized']);
});

test.serial('a late rejection from an older attempt does not overwrite the newer attempt: the resent content is what ends authorized', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const calls = world.authorizeCalls.length;
  world.authorizeMode = { hold: { reject: { cStat: 225, xMotivo: 'Rejeição: Falha no Schema XML do lote de NFe' } } };
  const first = stack.request('POST', '/v1/nfe', { body: nota({ numero: 93 }), headers: p.headers });
  await world.authorizeCallsReach(calls + 1);
  const doc = await documentRow({ issuer_id: issuer.id, number: 93 });

  // Past the lease the caller resends corrected content (attempt 2); its answer is lost.
  clock.advance(TRANSMISSION_LEASE_MS);
  world.authorizeMode = 'timeout-before-processing';
  const resend = await stack.request('POST', '/v1/nfe', { body: corrected(93), headers: p.headers });
  t.is(resend.status, 201, resend.text);
  t.like(resend.body.data, { id: doc.id, status: 'TRANSMITTING', amount: '30.00' });

  // Attempt 1's rejection of the old content arrives now: kept in the history, not applied.
  world.release();
  const late = await first;
  t.is(late.status, 201, late.text);
  t.like(late.body.data, { id: doc.id, status: 'TRANSMITTING', amount: '30.00' });
  t.like(await documentRow({ id: doc.id }), { status: 'TRANSMITTING', transmissions: 2, erros: null });
  t.deepEqual(await eventsOf(doc.id), []);
  const discarded = await stack.knex('emission.document_history').where({ document_id: doc.id, trigger: 'authorization:rejected' }).first();
  t.like(discarded, { from_status: 'TRANSMITTING', to_status: 'TRANSMITTING', motivo: 'Resposta da transmissão 1 descartada: a transmissão 2 é a vigente.' });
  t.deepEqual(discarded.detail, { attempt: 1, currentAttempt: 2, outcome: 'REJECTED', erros: [{ codigo: '225', descricao: 'Rejeição: Falha no Schema XML do lote de NFe' }] });

  // Reconciliation finishes attempt 2's document: not found at the authority, so the stored
  // (corrected) XML is retransmitted and authorized.
  world.authorizeMode = 'authorize';
  clock.advance(121_000);
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.reconcileDue', {}), { claimed: 1, outcomes: [{ id: doc.id, status: 'AUTHORIZED' }] });
  t.true(world.authorizeCalls.at(-1)!.signedNfeXml.includes('<xProd>Produto corrigido</xProd>'));
  t.deepEqual((await eventsOf(doc.id)).map((e: any) => [e.type, e.data.amount]), [['invoice.authorized', '30.00']]);
  t.like(await documentRow({ id: doc.id }), { status: 'AUTHORIZED', transmissions: 3, erros: null });
});

test.serial('a resend answered 204 (the authority already holds the key) ends as the consult finds it, authorized, never rejected', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  // The first transmission was authorized but its answer was lost.
  world.authorizeMode = 'timeout-after-processing';
  const first = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 94 }), headers: p.headers });
  t.is(first.status, 201, first.text);
  t.like(first.body.data, { status: 'TRANSMITTING' });
  const doc = await documentRow({ issuer_id: issuer.id, number: 94 });

  // The caller resends the same number: the authority says 204, and the consult finds the authorization.
  world.authorizeMode = { reject: { cStat: 204, xMotivo: 'Rejeição: Duplicidade de NF-e [nRec:351000000000001]' } };
  const consults = world.consultCalls.length;
  const resend = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 94 }), headers: p.headers });
  t.is(resend.status, 201, resend.text);
  t.like(resend.body.data, { id: doc.id, status: 'AUTHORIZED' });
  t.regex(resend.body.data.protocol, /^\d+$/);
  t.deepEqual(world.consultCalls.slice(consults), [doc.access_key]);
  t.like(await documentRow({ id: doc.id }), { status: 'AUTHORIZED', erros: null });
  t.deepEqual((await eventsOf(doc.id)).map((e: any) => e.type), ['invoice.authorized']);
});

test.serial('a 204 whose consult fails leaves the document open for reconciliation instead of rejecting it', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  world.authorizeMode = { reject: { cStat: 204, xMotivo: 'Rejeição: Duplicidade de NF-e' } };
  world.consultMode = 'fail';
  const res = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 95 }), headers: p.headers });
  t.is(res.status, 201, res.text);
  const doc = await documentRow({ issuer_id: issuer.id, number: 95 });
  t.not(doc.status, 'REJECTED');
  t.is(doc.erros, null);
  t.deepEqual(await eventsOf(doc.id), []);
});

test.serial('a 409 DOCUMENTO_EM_TRANSMISSAO is not replayed for its Idempotency-Key: the retry after the transmission ended is processed', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const calls = world.authorizeCalls.length;
  world.authorizeMode = { hold: 'timeout-before-processing' };
  const first = stack.request('POST', '/v1/nfe', { body: nota({ numero: 96 }), headers: p.headers });
  await world.authorizeCallsReach(calls + 1);
  const held = await documentRow({ issuer_id: issuer.id, number: 96 });

  const headers = { ...p.headers, 'idempotency-key': `resend-${randomUUID()}` };
  assertInFlight(t, await stack.request('POST', '/v1/nfe', { body: corrected(96), headers }), { id: held.id, number: 96 });
  world.release();
  t.like((await first).body.data, { id: held.id, status: 'TRANSMITTING' }); // answer lost: still open, lease ended

  // The same key again: the open note may be resent now, so the corrected content is transmitted.
  world.authorizeMode = 'authorize';
  const retry = await stack.request('POST', '/v1/nfe', { body: corrected(96), headers });
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id: held.id, status: 'AUTHORIZED', amount: '30.00' });
});
