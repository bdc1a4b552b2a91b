import test from 'ava';
import { invoiceContext } from '../../support/invoice-events.js';
import type { Stack } from '../../support/stack.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota, startEmissionStack } from '../../support/emission-world.js';
import { fakePipeline } from '../../support/fake-pipeline.js';
import { bindPipeline } from '../../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { AUTHORITY_PROCESSING_WINDOW_MS } from '../../../lib/emission/contingency.js';

/**
 * The NFC-e offline contingency flow of the emission service (lib/emission/contingency.ts) with
 * stand-ins for issuer, sefaz and the availability monitor: entry (asked, UF down, infra failure
 * then "not found"), the 503 when the key cannot be settled, the automatic transmission and the
 * once-only expiry.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;

test.before(async () => {
  stack = await startEmissionStack(world, clock, { monitor: true });
});
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => { world.authorizeMode = 'authorize'; world.consultMode = 'lookup'; world.monitorMode = 'unavailable'; });

const JUST = 'Autorizador da SEFAZ indisponivel no momento da emissao';


async function eventsOf(invoiceId: string) {
  const rows = await stack.knex('emission.outbox').orderBy('created_at');
  return rows.map((r: any) => r.payload).filter((p: any) => p.data.invoiceId === invoiceId);
}

async function stored(id: string) {
  return stack.knex('emission.documents').where({ id }).first();
}

async function nextNumber(issuerId: string, model = '65'): Promise<number> {
  const row = await stack.knex('emission.number_sequences').where({ issuer_id: issuerId, model, series: 1 }).first();
  return row ? Number(row.next_number) : 1;
}

const prazoOf = (at: string) => new Date(new Date(at).getTime() + 24 * 3_600_000).toISOString();

/** Runs scheduler rounds and returns the outcome of `id` (other tests' notes may be claimed too). */
async function contingencyRound(id: string) {
  const res: any = await stack.nodes[0]!.call('v1.emission.contingencyDue', {});
  return res.outcomes.find((o: any) => o.id === id);
}

test.serial('contingencia: true → 201 CONTINGENCIA_PENDENTE signed with tpEmis 9, not transmitted, with QR code, contingencia block and invoice.contingency', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId, { cnpj: '11222333000181' }); // the CNPJ the key below spells
  const calls = world.authorizeCalls.length;
  const res = await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: true, justificativaContingencia: 'Queda de energia no provedor de internet' }), headers: p.headers });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.regex(d.accessKey, /^35\d{4}11222333000181650010000000019\d{9}$/); // tpEmis 9 in the key
  t.deepEqual(d, {
    id: d.id, status: 'CONTINGENCIA_PENDENTE', model: '65', accessKey: d.accessKey, number: 1, series: 1, amount: '21.00', protocol: null,
    issuerId: issuer.id, createdAt: '2026-11-22T15:00:00.000Z', links: { self: `/v1/nfce/${d.id}`, xml: `/v1/nfce/${d.id}/xml`, eventos: `/v1/nfce/${d.id}/eventos`, danfe: `/v1/nfce/${d.id}/danfce.pdf`, danfeHtml: `/v1/nfce/${d.id}/danfce.html` },
    qrCode: `https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode?p=${d.accessKey}|2|2|1|hash`,
    contingencia: { motivo: 'solicitada', justificativa: 'Queda de energia no provedor de internet', prazo: '2026-11-23T15:00:00.000Z' },
  });
  t.is(world.authorizeCalls.length, calls, 'nothing is transmitted now');
  t.is(world.monitorCalls.length, 0, 'asked for: the monitor is not consulted');
  const row = await stored(d.id);
  t.is(row.tp_emis, 9);
  t.true(row.transmitted_xml.includes('<tpEmis>9</tpEmis><tpAmb>2</tpAmb><dhCont>2026-11-22T15:00:00.000Z</dhCont><xJust>Queda de energia no provedor de internet</xJust>'));
  t.is(row.next_check_at, null, 'not in reconciliation: the contingency scheduler owns it');

  const events = await eventsOf(d.id);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.contingency']);
  t.deepEqual(events[0].data, {
    invoiceId: d.id, model: '65', number: 1, series: 1, accessKey: d.accessKey, status: 'CONTINGENCIA_PENDENTE', amount: '21.00',
    qrCode: d.qrCode, contingencia: d.contingencia, ...invoiceContext({ ...d, issuerId: issuer.id }),
  });

  const got = await stack.request('GET', `/v1/nfce/${d.id}`, { headers: p.headers });
  t.like(got.body.data, { status: 'CONTINGENCIA_PENDENTE', protocol: null, contingencia: d.contingencia, situacao: null });

  // Resend of its numero: 409, never a new key; contingencia: true on it gives no receipt either.
  for (const body of [nota({ numero: 1 }), nota({ numero: 1, contingencia: true })]) {
    const again = await stack.request('POST', '/v1/nfce', { body, headers: p.headers });
    t.is(again.status, 409, again.text);
    t.like(again.body.error, { type: 'https://errors.test/RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL', status: 409, detail: 'Chave emitida em contingência que não pode ser restaurada.', details: { numero: 1, serie: 1 } });
  }
  t.is((await stored(d.id)).access_key, d.accessKey);
  t.is(await nextNumber(issuer.id), 2);
  t.is((await eventsOf(d.id)).length, 1);
});

test.serial('the monitor confirming the issuer UF down → CONTINGENCIA_PENDENTE (autorizadora-indisponivel); up or unavailable → online', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.monitorMode = 'down';
  const res = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { status: 'CONTINGENCIA_PENDENTE', protocol: null, contingencia: { motivo: 'autorizadora-indisponivel', justificativa: JUST, prazo: prazoOf(res.body.data.createdAt) } });
  t.deepEqual(world.monitorCalls.at(-1), { uf: 'SP', ambiente: 'homologacao' });

  for (const mode of ['up', 'unknown', 'unavailable'] as const) {
    world.monitorMode = mode;
    const online = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
    t.like(online.body.data, { status: 'AUTHORIZED' }, mode);
    t.is(online.body.data.contingencia, undefined);
  }
  // contingencia: false is never moved into contingency by the monitor.
  world.monitorMode = 'down';
  const forbidden = await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: false }), headers: p.headers });
  t.like(forbidden.body.data, { status: 'AUTHORIZED' });
});

test.serial('a send that reached nothing and the key not found → the same number re-keyed with tpEmis 9 and CONTINGENCIA_PENDENTE', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  world.authorizeMode = 'fail-before-send';
  const res = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  const online = world.authorizeCalls.at(-1)!.accessKey;
  t.is(online.slice(0, 34), d.accessKey.slice(0, 34), 'same UF, month, issuer, model, series and number');
  t.is(online[34], '1');
  t.is(d.accessKey[34], '9');
  t.not(online.slice(35, 43), d.accessKey.slice(35, 43), 'new cNF');
  t.like(d, { status: 'CONTINGENCIA_PENDENTE', number: 1, protocol: null, contingencia: { motivo: 'falha-na-transmissao', justificativa: JUST, prazo: prazoOf(d.createdAt) } });
  t.is(world.consultCalls.at(-1), online, 'the normal key was consulted');
  t.is(await nextNumber(issuer.id), 2, 'no number skipped or used twice');
  const row = await stored(d.id);
  t.like(row, { tp_emis: 9, access_key: d.accessKey, status: 'CONTINGENCIA_PENDENTE', transmitting_until: null });
  t.true(row.transmitted_xml.includes(`Id="NFe${d.accessKey}"`));
  t.deepEqual((await eventsOf(d.id)).map((e: any) => e.type), ['invoice.contingency']);
  t.deepEqual(await keysOf(d.id), [{ access_key: online, released_by: 'contingency:rekey', tp_emis: 1 }], 'the first key is kept');
});

async function keysOf(id: string) {
  return stack.knex('emission.document_keys').where({ document_id: id }).orderBy('released_at').select('access_key', 'released_by', 'tp_emis');
}

async function reconcile(id: string) {
  const res: any = await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  return res.outcomes.find((o: any) => o.id === id);
}

/** An NFC-e whose answer was lost after the send while the authority had not registered it yet: 503, re-key held. */
async function heldNote(t: any, p: { headers: Record<string, string> }) {
  world.authorizeMode = 'timeout-before-processing';
  const res = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
  t.is(res.status, 503, res.text);
  const details = res.body.error.details;
  const k1 = world.authorizeCalls.at(-1)!.accessKey;
  t.deepEqual(res.body.error, {
    type: 'https://errors.test/CONTINGENCIA_SITUACAO_INDETERMINADA', title: 'Service Unavailable', status: 503,
    detail: 'Situação da nota indeterminada; o resultado chegará por webhook.', details: { invoiceId: details.invoiceId, status: 'TRANSMITTING', accessKey: k1 },
    instance: '/v1/nfce', requestId: res.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
  });
  world.authorizeMode = 'authorize';
  return { id: details.invoiceId as string, k1 };
}

test.serial('an answer lost after the send and the key not found yet → 503 and no re-key within the processing window; a later consult that still finds nothing re-keys', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const { id, k1 } = await heldNote(t, p);
  const row = await stored(id);
  t.like(row, { status: 'TRANSMITTING', tp_emis: 1, access_key: k1, contingency_deadline: null, transmitting_until: null });
  t.is(new Date(row.next_check_at).getTime(), clock.now().getTime() + AUTHORITY_PROCESSING_WINDOW_MS, 'the next consult is at the end of the window');
  const hold = await stack.knex('emission.contingency_holds').where({ document_id: id }).first();
  t.is(hold.access_key.slice(0, 34), k1.slice(0, 34));
  t.is(hold.access_key[34], '9');
  t.deepEqual(await eventsOf(id), [], 'the partner was told nothing but the 503');
  t.is(await nextNumber(issuer.id), 2);

  clock.advance(AUTHORITY_PROCESSING_WINDOW_MS - 1);
  t.is(await reconcile(id), undefined, 'not due within the window');
  clock.advance(1);
  const sent = world.authorizeCalls.length;
  t.deepEqual(await reconcile(id), { id, status: 'CONTINGENCIA_PENDENTE' });
  t.is(world.authorizeCalls.length, sent, 'nothing retransmitted: the contingency scheduler sends it');
  t.is(world.consultCalls.at(-1), k1);
  const after = await stored(id);
  t.like(after, { status: 'CONTINGENCIA_PENDENTE', tp_emis: 9, access_key: hold.access_key, transmitted_xml: hold.signed_xml, contingency_reason: 'falha-na-transmissao' });
  t.deepEqual(await keysOf(id), [{ access_key: k1, released_by: 'contingency:held-rekey', tp_emis: 1 }]);
  t.is(await stack.knex('emission.contingency_holds').where({ document_id: id }).first(), undefined);
  t.deepEqual((await eventsOf(id)).map((e: any) => [e.type, e.data.accessKey]), [['invoice.contingency', hold.access_key]]);
  t.is(await nextNumber(issuer.id), 2, 'the same number');
});

test.serial('the authority registers the first key within the window → the consult at its end settles AUTHORIZED with that key, never contingency', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const { id, k1 } = await heldNote(t, p);
  world.authority.set(k1, '135261111111111'); // the late commit
  clock.advance(AUTHORITY_PROCESSING_WINDOW_MS);
  t.deepEqual(await reconcile(id), { id, status: 'AUTHORIZED' });
  t.like(await stored(id), { status: 'AUTHORIZED', access_key: k1, tp_emis: 1, protocol: '135261111111111', contingency_deadline: null });
  t.deepEqual((await eventsOf(id)).map((e: any) => [e.type, e.data.accessKey]), [['invoice.authorized', k1]]);
  t.deepEqual(await keysOf(id), []);
  t.is(await stack.knex('emission.contingency_holds').where({ document_id: id }).first(), undefined, 'the held tpEmis 9 note is dropped');
});

test.serial('539 naming the key this note held before → that key is consulted and taken back: AUTHORIZED with its protocol and nfeProc, no REJECTED', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const { id, k1 } = await heldNote(t, p);
  clock.advance(AUTHORITY_PROCESSING_WINDOW_MS);
  t.deepEqual(await reconcile(id), { id, status: 'CONTINGENCIA_PENDENTE' });
  const k2 = (await stored(id)).access_key;
  const k1Xml = (await stack.knex('emission.document_keys').where({ document_id: id, access_key: k1 }).first()).signed_xml;

  // The authority committed K1 after all; K2 for the same number is answered 539 naming K1.
  world.authority.set(k1, '135262222222222');
  clock.advance(1_000);
  world.authorizeMode = { reject: { cStat: 539, xMotivo: `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: ${k1}][nRec:351000000000077]` } };
  const [sends, consults] = [world.authorizeCalls.length, world.consultCalls.length];
  t.deepEqual(await contingencyRound(id), { id, status: 'AUTHORIZED' });
  // The round may also transmit notes other tests left pending: look for this note's keys only.
  t.is(world.authorizeCalls.slice(sends).filter((c) => c.accessKey === k2).length, 1);
  t.deepEqual(world.consultCalls.slice(consults).filter((k) => k === k1 || k === k2), [k1], 'the named key was consulted');
  const row = await stored(id);
  t.like(row, { status: 'AUTHORIZED', access_key: k1, tp_emis: 1, protocol: '135262222222222', transmitted_xml: k1Xml, contingency_deadline: null, erros: null });
  t.true(row.authorized_xml.includes(`Id="NFe${k1}"`), 'nfeProc of the first key');
  t.true(row.authorized_xml.includes('<nProt>135262222222222</nProt>'));
  t.deepEqual(await keysOf(id), [{ access_key: k2, released_by: 'adopted-previous-key', tp_emis: 9 }]);
  const events = await eventsOf(id);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.contingency', 'invoice.authorized'], 'one authorization, never a rejection');
  t.deepEqual(events[1].data, { invoiceId: id, model: '65', number: row.number, series: 1, accessKey: k1, status: 'AUTHORIZED', amount: '21.00', ...invoiceContext({ id, model: '65', issuerId: row.issuer_id, accessKey: k1, protocol: row.protocol }) });
  const got = await stack.request('GET', `/v1/nfce/${id}`, { headers: p.headers });
  t.like(got.body.data, { status: 'AUTHORIZED', accessKey: k1, protocol: '135262222222222' });
  t.is(got.body.data.contingencia, undefined);
});

test.serial('539 naming a key this note never held is a rejection', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const d = (await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: true }), headers: p.headers })).body.data;
  const other = `${d.accessKey.slice(0, 34)}1${'7'.repeat(9)}`;
  const xMotivo = `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: ${other}][nRec:351000000000078]`;
  world.authorizeMode = { reject: { cStat: 539, xMotivo } };
  clock.advance(60_000);
  const consults = world.consultCalls.length;
  t.deepEqual(await contingencyRound(d.id), { id: d.id, status: 'REJECTED' });
  t.is(world.consultCalls.length, consults, 'nothing to consult');
  t.like(await stored(d.id), { status: 'REJECTED', access_key: d.accessKey });
  t.deepEqual((await eventsOf(d.id)).map((e: any) => e.type), ['invoice.contingency', 'invoice.rejected']);
});

test.serial('infrastructure failure and the consult finds it authorized → 201 AUTHORIZED with the real protocol', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'timeout-after-processing';
  const res = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.like(d, { status: 'AUTHORIZED', protocol: world.authority.get(d.accessKey) });
  t.is(d.accessKey[34], '1');
  t.is(d.contingencia, undefined);
  const events = await eventsOf(d.id);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.authorized']);
  t.is(events[0].data.emitidaEmContingencia, undefined);
});

test.serial('infrastructure failure and no answer from the consult → 503 CONTINGENCIA_SITUACAO_INDETERMINADA; the note stays in reconciliation', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'fail-before-send';
  world.consultMode = 'fail';
  const res = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
  t.is(res.status, 503, res.text);
  const details = res.body.error.details;
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/CONTINGENCIA_SITUACAO_INDETERMINADA', title: 'Service Unavailable', status: 503,
      detail: 'Situação da nota indeterminada; o resultado chegará por webhook.', details: { invoiceId: details.invoiceId, status: 'ERROR', accessKey: details.accessKey },
      instance: '/v1/nfce', requestId: res.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  const row = await stored(details.invoiceId);
  t.like(row, { status: 'ERROR', tp_emis: 1, access_key: details.accessKey, contingency_deadline: null });
  t.not(row.next_check_at, null, 'reconciliation goes on');
  const open = await stack.request('GET', '/v1/nfce?situacao=indeterminada', { headers: p.headers });
  t.deepEqual(open.body.data.items.map((i: any) => i.id), [details.invoiceId]);
  t.deepEqual(await eventsOf(details.invoiceId), []);
});

test.serial('contingencia: false and NF-e keep the online behaviour after an infrastructure failure', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'fail-before-send';
  const consults = world.consultCalls.length;
  const nfce = await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: false }), headers: p.headers });
  t.is(nfce.status, 201, nfce.text);
  t.like(nfce.body.data, { status: 'ERROR', protocol: null });
  t.is(nfce.body.data.accessKey[34], '1');
  world.monitorMode = 'down';
  const nfe = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.is(nfe.status, 201, nfe.text);
  t.like(nfe.body.data, { status: 'ERROR', model: '55' });
  t.is(nfe.body.data.accessKey[34], '1');
  t.is(world.consultCalls.length, consults, 'no consult, no contingency');
});

test.serial('the scheduler transmits a pending note when its UF is up: AUTHORIZED with emitidaEmContingencia true; down waits', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const res = await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: true }), headers: p.headers });
  const d = res.body.data;
  const xml = (await stored(d.id)).transmitted_xml;

  world.monitorMode = 'down';
  const calls = world.authorizeCalls.length;
  t.deepEqual(await contingencyRound(d.id), { id: d.id, status: 'CONTINGENCIA_PENDENTE' });
  t.is(world.authorizeCalls.length, calls, 'UF confirmed down: nothing sent');
  t.is(await contingencyRound(d.id), undefined, 'claimed once per slot (backoff)');

  world.monitorMode = 'up';
  clock.advance(60_000);
  const before = world.authorizeCalls.length;
  t.deepEqual(await contingencyRound(d.id), { id: d.id, status: 'AUTHORIZED' });
  // The round may also transmit notes other tests left pending: look for this note's key only.
  const sent = world.authorizeCalls.slice(before).filter((c) => c.accessKey === d.accessKey);
  t.is(sent.length, 1, 'sent once, under the same key');
  t.is(sent[0]!.signedNfeXml, xml, 'the stored signed XML');
  const events = await eventsOf(d.id);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.contingency', 'invoice.authorized']);
  t.deepEqual(events[1].data, {
    invoiceId: d.id, model: '65', number: d.number, series: 1, accessKey: d.accessKey, status: 'AUTHORIZED', amount: '21.00', emitidaEmContingencia: true,
    ...invoiceContext({ ...d, protocol: world.authority.get(d.accessKey)! }),
  });
  const got = await stack.request('GET', `/v1/nfce/${d.id}`, { headers: p.headers });
  t.like(got.body.data, { status: 'AUTHORIZED', protocol: world.authority.get(d.accessKey), contingencia: d.contingencia });
});

test.serial('a scheduled transmission that fails before sending returns to CONTINGENCIA_PENDENTE; a 204 for its own key is settled by consult', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const d = (await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: true }), headers: p.headers })).body.data;
  world.authorizeMode = 'fail-before-send';
  clock.advance(60_000);
  t.deepEqual(await contingencyRound(d.id), { id: d.id, status: 'CONTINGENCIA_PENDENTE' });
  // The authority holds the key (an earlier attempt reached it): 204 → consult → AUTHORIZED, never REJECTED.
  world.authority.set(d.accessKey, '135269999999999');
  world.authorizeMode = { reject: { cStat: 204, xMotivo: 'Rejeição: Duplicidade de NF-e' } };
  clock.advance(2 * 60_000);
  t.deepEqual(await contingencyRound(d.id), { id: d.id, status: 'AUTHORIZED' });
  t.like(await stored(d.id), { protocol: '135269999999999', status: 'AUTHORIZED' });
  const events = await eventsOf(d.id);
  t.deepEqual(events.map((e: any) => [e.type, e.data.emitidaEmContingencia]), [['invoice.contingency', undefined], ['invoice.authorized', true]]);
});

test.serial('24 hours in CONTINGENCIA_PENDENTE: state unchanged, invoice.contingency.expired exactly once', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const d = (await stack.request('POST', '/v1/nfce', { body: nota({ contingencia: true }), headers: p.headers })).body.data;
  world.monitorMode = 'down';
  clock.advance(24 * 3_600_000 - 1);
  await contingencyRound(d.id);
  t.deepEqual((await eventsOf(d.id)).map((e: any) => e.type), ['invoice.contingency']);
  clock.advance(1);
  const rounds = await Promise.all([0, 1, 2].map(() => stack.nodes[0]!.call('v1.emission.contingencyDue', {})));
  t.true(rounds.some((r: any) => r.expired >= 1));
  await stack.nodes[0]!.call('v1.emission.contingencyDue', {});
  const events = await eventsOf(d.id);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.contingency', 'invoice.contingency.expired']);
  t.deepEqual(events[1].data, { ...events[0].data });
  t.is((await stored(d.id)).status, 'CONTINGENCIA_PENDENTE');
});
