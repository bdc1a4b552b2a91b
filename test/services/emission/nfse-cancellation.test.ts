import test, { type ExecutionContext } from 'ava';
import { STATUS_CODES } from 'node:http';
import { type HttpResult, type Stack } from '../../support/stack.js';
import { aValidNfseBody } from '../../support/nfse-factories.js';
import { SefinStandIn, standInStack } from '../../support/sefin-stand-in.js';
import { ManualClock } from '../../../services/shared/clock.js';

/**
 * Issue 16 audit, gap 2: a cancellation (e101101) whose answer was lost is settled by Sefin's record
 * of the NFS-e (v1.sefaz.nfseConsult), as NF-e events are by the consult by key: the repeated request
 * consults before sending again, and the reconciliation round settles the uncertain ones on its
 * own. Over HTTP with the real gateway, auth, issuer and emission, and the Sefin stand-in.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
const sefin = new SefinStandIn();
const clock = new ManualClock(new Date());
const justificativa = 'Servico faturado em duplicidade para o tomador';

test.before(async () => {
  ({ stack, headers, issuerId } = await standInStack(sefin, clock));
});
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => { sefin.event = 'register'; sefin.eventGate = null; });

async function authorized(): Promise<{ id: string; chaveAcesso: string }> {
  const res = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  if (res.status !== 201 || res.body.data.status !== 'AUTHORIZED') throw new Error(res.text);
  return res.body.data;
}
const cancel = (id: string) => stack.request('POST', `/v1/nfse/${id}/cancelamento`, { headers, body: { justificativa } });
const round = async () => (await stack.nodes[0]!.call('v1.emission.reconcileNfseDue', {}) as any).eventos;
const canceledEvents = async (nfseId: string) => (await stack.knex('emission.outbox').select('payload'))
  .map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
  .filter((p: any) => p.type === 'invoice.canceled' && p.data?.nfseId === nfseId);
const sendsFor = (chave: string) => sefin.calls.filter((c) => c.action === 'nfseEvent' && c.params.chaveAcesso === chave).length;
const consultsFor = (chave: string) => sefin.calls.filter((c) => c.action === 'nfseConsult' && c.params.chaveAcesso === chave).length;
const statusOf = async (id: string) => (await stack.request('GET', `/v1/nfse/${id}`, { headers })).body.data.status;

/** The whole 503 of a cancellation without an answer. */
function assertUnanswered(t: ExecutionContext, res: HttpResult, nfseId: string, situacao: 'indeterminada' | 'nao_enviado'): string {
  t.is(res.status, 503, res.text);
  const eventoId = res.body.error.details?.eventoId;
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/AUTORIDADE_INDISPONIVEL', title: STATUS_CODES[503], status: 503,
      detail: 'Autoridade fiscal não respondeu; repita a mesma requisição para concluir (nada será enviado em duplicidade).',
      details: { situacao, eventoId }, instance: `/v1/nfse/${nfseId}/cancelamento`, requestId: res.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  return eventoId;
}

test.serial('503 indeterminada when the answer is lost after Sefin registered it; the repeated request consults first and answers 200 CANCELADA without sending again', async (t) => {
  const doc = await authorized();
  sefin.event = 'drop-after-processing';
  const lost = await cancel(doc.id);
  const eventoId = assertUnanswered(t, lost, doc.id, 'indeterminada');
  t.is(await statusOf(doc.id), 'AUTHORIZED');

  sefin.event = 'register';
  const again = await cancel(doc.id);
  t.is(again.status, 200, again.text);
  t.like(again.body.data, { id: eventoId, status: 'REGISTERED', registradoEm: '2026-11-23T00:00:00.000Z', documento: { id: doc.id, status: 'CANCELADA' } });
  t.is(sendsFor(doc.chaveAcesso), 1);
  t.is(consultsFor(doc.chaveAcesso), 1);
  t.is((await canceledEvents(doc.id)).length, 1);
  const xml = await stack.request('GET', `/v1/nfse/${doc.id}/cancelamento/xml`, { headers });
  t.is(xml.text, sefin.canceled.get(doc.chaveAcesso)!.eventXml);
});

test.serial('the reconciliation round settles a lost cancellation on its own: CANCELADA with exactly one invoice.canceled; a later request sends nothing', async (t) => {
  const doc = await authorized();
  sefin.event = 'drop-after-processing';
  const eventoId = assertUnanswered(t, await cancel(doc.id), doc.id, 'indeterminada');
  t.deepEqual(await round(), [], 'not due before its first check');

  clock.advance(3 * 60_000);
  t.deepEqual(await round(), [{ id: eventoId, status: 'REGISTERED' }]);
  t.is(await statusOf(doc.id), 'CANCELADA');
  clock.advance(10 * 60_000);
  t.deepEqual(await round(), []);
  t.is((await canceledEvents(doc.id)).length, 1);

  const sends = sendsFor(doc.chaveAcesso);
  const again = await cancel(doc.id);
  t.is(again.status, 200, again.text);
  t.like(again.body.data, { id: eventoId, status: 'REGISTERED' });
  t.is(sendsFor(doc.chaveAcesso), sends);
});

test.serial('a lost send Sefin did not register: the round finds the NFS-e not canceled and leaves the event for its request, which sends it then', async (t) => {
  const doc = await authorized();
  sefin.event = 'fail';
  const eventoId = assertUnanswered(t, await cancel(doc.id), doc.id, 'indeterminada');
  clock.advance(3 * 60_000);
  t.deepEqual(await round(), [{ id: eventoId, status: 'PENDING' }]);
  t.like(await stack.knex('emission.nfse_events').where({ id: eventoId }).first(), { status: 'PENDING', last_outcome: 'failed', next_check_at: null });
  clock.advance(10 * 60_000);
  t.deepEqual(await round(), [], 'settled: not consulted again');
  t.is(await statusOf(doc.id), 'AUTHORIZED');

  sefin.event = 'register';
  const consults = consultsFor(doc.chaveAcesso);
  const again = await cancel(doc.id);
  t.is(again.status, 200, again.text);
  t.like(again.body.data, { id: eventoId, status: 'REGISTERED', documento: { status: 'CANCELADA' } });
  t.is(sendsFor(doc.chaveAcesso), 2);
  t.is(consultsFor(doc.chaveAcesso), consults, 'known not registered: sent without consulting');
});

test.serial('503 nao_enviado when nothing left: the round leaves it alone and the repeated request sends the same event', async (t) => {
  const doc = await authorized();
  sefin.event = 'not-sent';
  const eventoId = assertUnanswered(t, await cancel(doc.id), doc.id, 'nao_enviado');
  clock.advance(3 * 60_000);
  t.deepEqual(await round(), []);
  t.is(consultsFor(doc.chaveAcesso), 0);
  sefin.event = 'register';
  const again = await cancel(doc.id);
  t.is(again.status, 200, again.text);
  t.like(again.body.data, { id: eventoId, status: 'REGISTERED' });
  const sent = sefin.calls.filter((c) => c.action === 'nfseEvent' && c.params.chaveAcesso === doc.chaveAcesso).map((c) => c.params.signedEventXml);
  t.is(sent.length, 2);
  t.is(sent[1], sent[0], 'the same signed event');
});

test.serial('409 EVENTO_EM_TRANSMISSAO while the cancellation is being sent; nothing is sent twice', async (t) => {
  const doc = await authorized();
  let open!: () => void;
  sefin.eventGate = new Promise((r) => { open = r; });
  const first = cancel(doc.id);
  while (sendsFor(doc.chaveAcesso) === 0) await new Promise((r) => setTimeout(r, 20));
  const second = await cancel(doc.id);
  t.is(second.status, 409, second.text);
  const eventoId = second.body.error.details.eventoId;
  t.deepEqual(second.body, {
    error: {
      type: 'https://errors.test/EVENTO_EM_TRANSMISSAO', title: STATUS_CODES[409], status: 409,
      detail: 'Evento deste documento em transmissão para a autoridade fiscal; aguarde e repita a requisição.',
      details: { eventoId, nfseId: doc.id }, instance: `/v1/nfse/${doc.id}/cancelamento`, requestId: second.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  open();
  const done = await first;
  t.is(done.status, 200, done.text);
  t.like(done.body.data, { id: eventoId, status: 'REGISTERED' });
  t.is(sendsFor(doc.chaveAcesso), 1);
  t.is((await canceledEvents(doc.id)).length, 1);
});
