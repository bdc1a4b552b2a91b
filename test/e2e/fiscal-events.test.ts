import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { verifyXmlSignature } from '../../lib/sign/verify.js';
import { integratorWithA1, SANDBOX_CSC, subscribedReceiver } from '../support/e2e.js';

/**
 * Cancellation and CC-e over HTTP with every service real and the authority simulator: events
 * signed with the issuer's A1, registered by the simulator (which applies its 24 h cancellation
 * window, rule 501), the document CANCELADA with invoice.canceled in the outbox and at the webhook,
 * procEventoNFe checked by the independent verify-dfe.sh, and the answer lost after processing
 * completed by repeating the request (the consult by key lists the registered event).
 */
let stack: Stack;
let receiver: Receiver;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '200' } });
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
  receiver = await subscribedReceiver(stack, headers);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

async function authorized(path: 'nfe' | 'nfce', body: unknown = path === 'nfe' ? aValidNfeBody() : aValidNfceBody()) {
  const res = await stack.request('POST', `/v1/${path}`, { headers, body });
  if (res.status !== 201 || res.body.data.status !== 'AUTHORIZED') throw new Error(`emission: ${res.status} ${res.text}`);
  return res.body.data;
}

const canceledRows = async (invoiceId: string) => (await stack.knex('emission.outbox').select('payload'))
  .map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
  .filter((p: any) => p.type === 'invoice.canceled' && p.data?.invoiceId === invoiceId);

const JUST = 'Cancelamento por erro na digitacao do pedido';

test.serial('an authorized NF-e is canceled: 200, CANCELADA, invoice.canceled in the outbox and at the webhook, procEventoNFe passes verify-dfe', async (t) => {
  const doc = await authorized('nfe');
  const res = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.is(res.status, 200, res.text);
  const ev = res.body.data;
  t.like(ev, { tipo: 'cancelamento', sequencia: 1, status: 'REGISTERED', justificativa: JUST, cStat: 135, documento: { id: doc.id, status: 'CANCELADA', accessKey: doc.accessKey, model: '55' } });
  t.regex(ev.protocolo, /^\d{15}$/);
  t.is(ev.links.xml, `/v1/nfe/${doc.id}/eventos/${ev.id}/xml`);

  const got = await stack.request('GET', `/v1/nfe/${doc.id}`, { headers });
  t.like(got.body.data, { status: 'CANCELADA', protocol: doc.protocol });
  const nfeProc = await stack.request('GET', `/v1/nfe/${doc.id}/xml`, { headers });
  t.is(nfeProc.status, 200, 'the canceled note still has its authorized XML');
  t.is(nfeProc.headers.get('content-disposition'), `attachment; filename="${doc.accessKey}-procNFe.xml"`);
  t.true(verifyDfe({ nfeProc: nfeProc.text }).ok);
  const listed = await stack.request('GET', `/v1/nfe?status=CANCELADA`, { headers });
  t.deepEqual(listed.body.data.items.map((d: any) => d.id), [doc.id]);

  const rows = await canceledRows(doc.id);
  t.is(rows.length, 1);
  t.deepEqual(rows[0].data, {
    invoiceId: doc.id, model: '55', number: doc.number, series: 1, accessKey: doc.accessKey, status: 'CANCELADA', amount: '100.00',
    protocolo: ev.protocolo, justificativa: JUST, canceladaEm: ev.registradoEm, issuerId: doc.issuerId, cnpj: doc.accessKey.slice(6, 20),
    links: { self: `/v1/nfe/${doc.id}`, xml: `/v1/nfe/${doc.id}/xml`, eventos: `/v1/nfe/${doc.id}/eventos`, danfe: `/v1/nfe/${doc.id}/danfe.pdf`, danfeHtml: `/v1/nfe/${doc.id}/danfe.html` },
  });
  const hook = await waitFor(async () => receiver.hits.find((h) => h.body?.type === 'invoice.canceled' && h.body.data.invoiceId === doc.id), 'invoice.canceled webhook');
  t.true(hook.verified);
  t.is(hook.headers['x-webhook-event'], 'invoice.canceled');

  const xml = await stack.request('GET', ev.links.xml, { headers });
  t.is(xml.status, 200);
  t.regex(xml.headers.get('content-type') ?? '', /application\/xml/);
  t.regex(xml.text, /^<procEventoNFe[^>]*><evento[^>]*><infEvento Id="ID110111\d{44}01">/);
  t.true(xml.text.includes(`<nProt>${ev.protocolo}</nProt>`));
  const independent = verifyDfe({ procEventoNFe: xml.text });
  t.true(independent.ok, independent.output);
  t.true(verifyXmlSignature(xml.text, `ID110111${doc.accessKey}01`).valid);

  const events = await stack.request('GET', `/v1/nfe/${doc.id}/eventos`, { headers });
  t.deepEqual(events.body.data.items, [{ ...ev, documento: undefined }].map(({ documento, ...rest }) => rest));
});

test.serial('repeating the cancellation of a CANCELADA document answers 200 with the registered event and sends nothing', async (t) => {
  const doc = await authorized('nfe');
  const first = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.is(first.status, 200, first.text);
  const again = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: 'Outra justificativa qualquer enviada' } });
  t.is(again.status, 200, again.text);
  t.deepEqual(again.body.data, first.body.data);
  t.is((await stack.knex('emission.document_events').where({ document_id: doc.id })).length, 1);
  t.is((await stack.knex('simulator.events').where({ access_key: doc.accessKey })).length, 1);
  t.is((await canceledRows(doc.id)).length, 1);
});

test.serial('an authorized NFC-e is canceled the same way, with a justificativa of exactly 15 characters', async (t) => {
  const doc = await authorized('nfce');
  const res = await stack.request('POST', `/v1/nfce/${doc.id}/cancelamento`, { headers, body: { justificativa: 'Quinze letras!!' } });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, { tipo: 'cancelamento', status: 'REGISTERED', justificativa: 'Quinze letras!!', documento: { status: 'CANCELADA', model: '65' } });
  t.is((await stack.request('GET', `/v1/nfce/${doc.id}`, { headers })).body.data.status, 'CANCELADA');
  t.like((await canceledRows(doc.id))[0]?.data, { model: '65', status: 'CANCELADA', justificativa: 'Quinze letras!!' });
  const xml = await stack.request('GET', res.body.data.links.xml, { headers });
  const independent = verifyDfe({ procEventoNFe: xml.text });
  t.true(independent.ok, independent.output);
});

test.serial('a document that is not AUTHORIZED answers 422 DOCUMENTO_NAO_CANCELAVEL with its status, before any event', async (t) => {
  const sefaz: any = stack.nodes[0]!.getLocalService('v1.sefaz');
  sefaz.simulator.faults.add({ mode: 'down', service: 'NFeAutorizacao4', times: 1 });
  const emitted = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(emitted.status, 201, emitted.text);
  t.not(emitted.body.data.status, 'AUTHORIZED');
  const status = emitted.body.data.status;
  const res = await stack.request('POST', `/v1/nfe/${emitted.body.data.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/DOCUMENTO_NAO_CANCELAVEL', title: 'Unprocessable Entity', status: 422,
      // In words, never the English status token (issue 21, item 6).
      detail: `Documento ${({ TRANSMITTING: 'em transmissão', ERROR: 'sem resposta da autoridade' } as Record<string, string>)[status]} não pode ser cancelado: só um documento autorizado.`, details: { status },
      instance: `/v1/nfe/${emitted.body.data.id}/cancelamento`, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is((await stack.knex('emission.document_events').where({ document_id: emitted.body.data.id })).length, 0);
});

test.serial('the authority refuses a cancellation after its 24 h window (220 at 25 h; 501 says 7 days): 422 EVENTO_REJEITADO verbatim, document still AUTHORIZED', async (t) => {
  const doc = await authorized('nfe');
  await stack.knex('simulator.notes').where({ access_key: doc.accessKey }).update({ authorized_at: new Date(Date.now() - 25 * 3_600_000) });
  const res = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.is(res.status, 422, res.text);
  t.is(res.body.error.type, 'https://errors.test/EVENTO_REJEITADO');
  t.like(res.body.error.details, { cStat: 220, xMotivo: 'Rejeição: Prazo de Cancelamento superior ao previsto na Legislação', tipo: 'cancelamento', sequencia: 1 });
  t.is(res.body.error.detail, 'Evento rejeitado pela autoridade fiscal: 220 - Rejeição: Prazo de Cancelamento superior ao previsto na Legislação');
  t.is((await stack.request('GET', `/v1/nfe/${doc.id}`, { headers })).body.data.status, 'AUTHORIZED');
  const events = await stack.request('GET', `/v1/nfe/${doc.id}/eventos`, { headers });
  t.like(events.body.data.items, [{ tipo: 'cancelamento', status: 'REJECTED', cStat: 220, protocolo: null, links: { xml: null } }]);
  t.is((await stack.request('GET', `/v1/nfe/${doc.id}/eventos/${events.body.data.items[0].id}/xml`, { headers })).status, 409);
});

test.serial('an answer lost after the authority registered the cancellation: 503, and the same request completes it from the consult without a second event', async (t) => {
  const doc = await authorized('nfe');
  const sefaz: any = stack.nodes[0]!.getLocalService('v1.sefaz');
  sefaz.simulator.faults.add({ mode: 'drop-after-processing', service: 'NFeRecepcaoEvento4', times: 1 });
  const lost = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.is(lost.status, 503, lost.text);
  t.is(lost.body.error.type, 'https://errors.test/AUTORIDADE_INDISPONIVEL');
  t.like(lost.body.error.details, { tipo: 'cancelamento', sequencia: 1, situacao: 'indeterminada' });
  t.is((await stack.request('GET', `/v1/nfe/${doc.id}`, { headers })).body.data.status, 'AUTHORIZED');
  t.is((await canceledRows(doc.id)).length, 0);

  const done = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.is(done.status, 200, done.text);
  t.like(done.body.data, { id: lost.body.error.details.eventoId, status: 'REGISTERED', documento: { status: 'CANCELADA' } });
  const registered = await stack.knex('simulator.events').where({ access_key: doc.accessKey });
  t.is(registered.length, 1);
  t.is(done.body.data.protocolo, registered[0].protocol);
  t.is((await canceledRows(doc.id)).length, 1);
  const xml = await stack.request('GET', done.body.data.links.xml, { headers });
  t.true(verifyDfe({ procEventoNFe: xml.text }).ok);
});

test.serial('CC-e: sequencia grows per NF-e, each letter is kept with its protocol and XML, and the 21st is refused', async (t) => {
  const doc = await authorized('nfe');
  const first = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Endereco de entrega: Rua das Flores, 123' } });
  t.is(first.status, 201, first.text);
  t.like(first.body.data, { tipo: 'carta-correcao', sequencia: 1, status: 'REGISTERED', correcao: 'Endereco de entrega: Rua das Flores, 123' });
  t.regex(first.body.data.protocolo, /^\d{15}$/);
  const xml = await stack.request('GET', first.body.data.links.xml, { headers });
  t.true(xml.text.includes('<tpEvento>110110</tpEvento>'));
  const independent = verifyDfe({ procEventoNFe: xml.text });
  t.true(independent.ok, independent.output);

  for (let n = 2; n <= 20; n++) {
    const res = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: `Correcao numero ${n} do campo observacoes` } });
    t.is(res.status, 201, res.text);
    t.is(res.body.data.sequencia, n);
  }
  const over = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Correcao numero 21 do campo observacoes' } });
  t.is(over.status, 422, over.text);
  t.is(over.body.error.type, 'https://errors.test/LIMITE_CARTAS_CORRECAO');
  t.deepEqual(over.body.error.details, { limite: 20, registradas: 20 });
  const events = await stack.request('GET', `/v1/nfe/${doc.id}/eventos`, { headers });
  t.deepEqual(events.body.data.items.map((e: any) => e.sequencia), Array.from({ length: 20 }, (_, i) => i + 1));
  t.is((await stack.knex('simulator.events').where({ access_key: doc.accessKey, tp_evento: '110110' })).length, 20);

  // A canceled NF-e takes no more letters.
  t.is((await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } })).status, 200);
  const late = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Correcao depois do cancelamento' } });
  t.is(late.status, 422);
  t.is(late.body.error.type, 'https://errors.test/CARTA_CORRECAO_NAO_PERMITIDA');
});

test.serial('CC-e with a lost answer: another letter waits (409 EVENTO_PENDENTE), the same request completes it with its sequence, the next takes 2', async (t) => {
  const doc = await authorized('nfe');
  const sefaz: any = stack.nodes[0]!.getLocalService('v1.sefaz');
  sefaz.simulator.faults.add({ mode: 'drop-after-processing', service: 'NFeRecepcaoEvento4', times: 1 });
  const body = { correcao: 'Placa do veiculo transportador: ABC1D23' };
  const lost = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body });
  t.is(lost.status, 503, lost.text);
  t.like(lost.body.error.details, { tipo: 'carta-correcao', sequencia: 1, situacao: 'indeterminada' });

  const other = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Uma outra correcao qualquer do pedido' } });
  t.is(other.status, 409, other.text);
  t.is(other.body.error.type, 'https://errors.test/EVENTO_PENDENTE');
  t.deepEqual(other.body.error.details, { eventoId: lost.body.error.details.eventoId, tipo: 'carta-correcao', sequencia: 1, correcao: body.correcao });
  const cancel = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST } });
  t.is(cancel.status, 409);

  const done = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body });
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { id: lost.body.error.details.eventoId, sequencia: 1, status: 'REGISTERED' });
  const next = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Uma outra correcao qualquer do pedido' } });
  t.is(next.status, 201, next.text);
  t.is(next.body.data.sequencia, 2);
  t.deepEqual((await stack.knex('simulator.events').where({ access_key: doc.accessKey }).orderBy('n_seq')).map((e: any) => e.n_seq), [1, 2]);
});

test.serial('NFC-e has no correction letter: the route does not exist (404)', async (t) => {
  const doc = await authorized('nfce');
  const res = await stack.request('POST', `/v1/nfce/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Endereco de entrega: Rua das Flores, 123' } });
  t.is(res.status, 404, res.text);
  t.is((await stack.knex('emission.document_events').where({ document_id: doc.id })).length, 0);
});

test.serial('validation envelopes: justificativa of 14 characters, with edge spaces or unknown fields answer 400 before anything', async (t) => {
  const doc = await authorized('nfe');
  const short = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: 'Catorze letras' } });
  t.deepEqual(short.body, {
    error: {
      type: 'https://errors.test/VALIDATION_ERROR', title: 'Bad Request', status: 400, detail: short.body.error.detail,
      errors: [{ field: 'justificativa', message: "O campo 'justificativa' deve ter no mínimo 15 caracteres." }],
      instance: `/v1/nfe/${doc.id}/cancelamento`, requestId: short.headers.get('x-request-id'), timestamp: short.body.error.timestamp,
    },
  });
  const spaced = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: ` ${JUST}` } });
  t.is(spaced.status, 400);
  t.deepEqual(spaced.body.error.errors, [{ field: 'justificativa', message: "O campo 'justificativa' aceita só caracteres imprimíveis do leiaute (Latin-1, sem quebra de linha) e não pode começar nem terminar com espaço." }]);
  const long = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'x'.repeat(1001) } });
  t.deepEqual(long.body.error.errors, [{ field: 'correcao', message: "O campo 'correcao' deve ter no máximo 1000 caracteres." }]);
  const unknown = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: JUST, motivo: 'x' } });
  t.is(unknown.status, 400);
  t.is(unknown.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.is((await stack.request('GET', `/v1/nfe/${doc.id}`, { headers })).body.data.status, 'AUTHORIZED');
  t.is((await stack.knex('emission.document_events').where({ document_id: doc.id })).length, 0);
  const other = await stack.request('POST', '/v1/nfe/00000000-0000-4000-8000-000000000000/cancelamento', { headers, body: { justificativa: JUST } });
  t.is(other.status, 404);
});
