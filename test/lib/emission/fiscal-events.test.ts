import test from 'ava';
import {
  canceledEventData, checkCancelable, mayHaveBeenSent, checkCorrectable, claimEvent, eventView, nextCceSequence, registeredInConsult, rejectionError, settleEvent, unansweredError,
  EVENT_LEASE_MS, MAX_CCE_SEQUENCE, type FiscalEventRecord,
} from '../../../lib/emission/fiscal-events.js';
import { FISCAL_TEXT_PATTERN } from '../../../lib/emission/fiscal-text.js';
import { DOCUMENT_STATUSES, isTerminal } from '../../../lib/emission/state.js';
import type { DocumentRecord } from '../../../lib/emission/document.js';
import { throwsCode } from '../../support/domain-errors.js';

const now = new Date('2026-11-22T18:00:00Z');
const anEvent = (over: Partial<FiscalEventRecord> = {}): FiscalEventRecord => ({
  id: '00000000-0000-4000-8000-000000000001', documentId: 'd1', partnerId: 'p1', type: 'carta-correcao', sequence: 1, status: 'REGISTERED',
  text: 'Correcao do endereco de entrega', protocol: '135260000000001', cStat: 135, xMotivo: 'Evento registrado e vinculado a NF-e',
  registeredAt: now, sendingUntil: null, lastOutcome: null, attempts: 1, createdAt: now, updatedAt: now, hasXml: true, ...over,
});

test('checkCancelable passes an AUTHORIZED document', (t) => {
  t.notThrows(() => checkCancelable('AUTHORIZED'));
});

test('checkCancelable refuses every other status with DOCUMENTO_NAO_CANCELAVEL and the current status', (t) => {
  for (const status of DOCUMENT_STATUSES.filter((s) => s !== 'AUTHORIZED')) {
    const err = throwsCode(t, () => checkCancelable(status), 'DOCUMENTO_NAO_CANCELAVEL');
    t.deepEqual(err.data, { status });
    t.is(err.code, 422);
  }
});

test('CANCELADA is terminal: no authorization or consult answer moves it', (t) => {
  t.true(isTerminal('CANCELADA'));
});

test('checkCorrectable passes an AUTHORIZED NF-e and refuses a CANCELADA one with CARTA_CORRECAO_NAO_PERMITIDA', (t) => {
  t.notThrows(() => checkCorrectable('AUTHORIZED'));
  t.deepEqual(throwsCode(t, () => checkCorrectable('CANCELADA'), 'CARTA_CORRECAO_NAO_PERMITIDA').data, { status: 'CANCELADA' });
});

test('nextCceSequence counts from 1, skips rejected letters and allows the 20th', (t) => {
  t.is(nextCceSequence([]), 1);
  t.is(nextCceSequence([anEvent({ sequence: 1 }), anEvent({ sequence: 2, status: 'REJECTED' })]), 2);
  t.is(nextCceSequence([anEvent({ type: 'cancelamento', sequence: 1 }), anEvent({ sequence: 1 })]), 2);
  const nineteen = Array.from({ length: 19 }, (_, i) => anEvent({ sequence: i + 1 }));
  t.is(nextCceSequence(nineteen), MAX_CCE_SEQUENCE);
});

test('nextCceSequence refuses the 21st letter with LIMITE_CARTAS_CORRECAO', (t) => {
  const twenty = Array.from({ length: 20 }, (_, i) => anEvent({ sequence: i + 1 }));
  const err = throwsCode(t, () => nextCceSequence(twenty), 'LIMITE_CARTAS_CORRECAO');
  t.deepEqual(err.data, { limite: 20, registradas: 20 });
});

test('claimEvent: a new cancellation takes sequence 1, a new CC-e the next one', (t) => {
  t.deepEqual(claimEvent('cancelamento', 'Cancelamento por erro de digitacao', [], now), { kind: 'new', sequence: 1 });
  t.deepEqual(claimEvent('carta-correcao', 'Outra correcao qualquer aqui', [anEvent()], now), { kind: 'new', sequence: 2 });
});

test('claimEvent refuses while another send holds the lease with EVENTO_EM_TRANSMISSAO', (t) => {
  const pending = anEvent({ status: 'PENDING', sendingUntil: new Date(now.getTime() + EVENT_LEASE_MS) });
  const err = throwsCode(t, () => claimEvent('carta-correcao', pending.text, [pending], now), 'EVENTO_EM_TRANSMISSAO');
  t.deepEqual(err.data, { eventoId: pending.id, tipo: 'carta-correcao', sequencia: 1 });
  t.is(err.code, 409);
});

test('claimEvent resumes an unanswered event for the same request (any justificativa for a cancellation)', (t) => {
  const cce = anEvent({ status: 'PENDING', lastOutcome: 'unknown' });
  t.deepEqual(claimEvent('carta-correcao', cce.text, [cce], now), { kind: 'resume', event: cce });
  const cancel = anEvent({ type: 'cancelamento', status: 'PENDING', text: 'Primeira justificativa enviada', lastOutcome: 'failed' });
  t.deepEqual(claimEvent('cancelamento', 'Outra justificativa qualquer', [cancel], now), { kind: 'resume', event: cancel });
});

test('claimEvent refuses a different event while one is unanswered with EVENTO_PENDENTE', (t) => {
  const cce = anEvent({ status: 'PENDING', lastOutcome: 'unknown' });
  const err = throwsCode(t, () => claimEvent('carta-correcao', 'Uma correcao diferente da anterior', [cce], now), 'EVENTO_PENDENTE');
  t.deepEqual(err.data, { eventoId: cce.id, tipo: 'carta-correcao', sequencia: 1, correcao: cce.text });
  throwsCode(t, () => claimEvent('cancelamento', 'Cancelamento por erro de digitacao', [cce], now), 'EVENTO_PENDENTE');
});

test('settleEvent maps registered, rejected and unanswered results', (t) => {
  t.deepEqual(settleEvent({ kind: 'registered', cStat: 135, xMotivo: 'ok', protocol: '135260000000009', receivedAt: '2026-11-22T15:00:00-03:00', procEventoXml: '<procEventoNFe/>' }),
    { kind: 'registered', cStat: 135, xMotivo: 'ok', protocol: '135260000000009', registeredAt: new Date('2026-11-22T18:00:00Z'), xml: '<procEventoNFe/>' });
  t.deepEqual(settleEvent({ kind: 'rejected', cStat: 501, xMotivo: 'Rejeição: Pedido de Cancelamento intempestivo' }), { kind: 'rejected', cStat: 501, xMotivo: 'Rejeição: Pedido de Cancelamento intempestivo' });
  t.deepEqual(settleEvent({ kind: 'unknown', reason: 'timeout-after-send', detail: '30 s' }), { kind: 'unanswered', outcome: 'unknown', detail: 'timeout-after-send: 30 s' });
  t.deepEqual(settleEvent({ kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' }), { kind: 'unanswered', outcome: 'failed', detail: 'connect: ECONNREFUSED' });
});

test('registeredInConsult finds the event of this type and sequence among the registered ones', (t) => {
  const ev = { tpEvento: '110111', sequence: 1, cStat: 135, xMotivo: 'ok', protocol: '135260000000010', registeredAt: '2026-11-22T15:00:00-03:00', procEventoXml: '<procEventoNFe/>' };
  const canceled = { kind: 'canceled' as const, cStat: 101, xMotivo: 'Cancelamento de NF-e homologado', events: [ev] };
  t.like(registeredInConsult(canceled, 'cancelamento', 1), { kind: 'registered', protocol: '135260000000010' });
  t.is(registeredInConsult(canceled, 'carta-correcao', 1), null);
  t.is(registeredInConsult({ kind: 'not-found', cStat: 217, xMotivo: 'x' }, 'cancelamento', 1), null);
});

test('rejectionError and unansweredError carry the authority text and the event', (t) => {
  const e = anEvent({ type: 'cancelamento' });
  const rej = rejectionError(e, 501, 'Rejeição: Pedido de Cancelamento intempestivo');
  t.is(rej.type, 'EVENTO_REJEITADO');
  t.deepEqual(rej.data, { cStat: 501, xMotivo: 'Rejeição: Pedido de Cancelamento intempestivo', eventoId: e.id, tipo: 'cancelamento', sequencia: 1 });
  const una = unansweredError(e, 'unknown');
  t.is(una.type, 'AUTORIDADE_INDISPONIVEL');
  t.is(una.code, 503);
  t.is(una.data?.situacao, 'indeterminada');
});

test('eventView names the text by type and links the XML only when stored', (t) => {
  const doc = { id: 'doc-1', model: '55' } as DocumentRecord;
  t.like(eventView(anEvent(), doc), { tipo: 'carta-correcao', correcao: 'Correcao do endereco de entrega', links: { xml: '/v1/nfe/doc-1/eventos/00000000-0000-4000-8000-000000000001/xml' } });
  t.like(eventView(anEvent({ type: 'cancelamento', hasXml: false, status: 'PENDING' }), { ...doc, model: '65' }), { justificativa: 'Correcao do endereco de entrega', links: { xml: null } });
});

test('canceledEventData is the invoice payload plus protocolo, justificativa and canceladaEm', (t) => {
  const doc = { id: 'doc-1', issuerId: 'iss-1', model: '65', number: 3, series: 1, accessKey: '3'.repeat(44), amountCents: 1050n } as DocumentRecord;
  t.deepEqual(canceledEventData(doc, anEvent({ type: 'cancelamento', text: 'Cliente desistiu da compra' })), {
    invoiceId: 'doc-1', model: '65', number: 3, series: 1, accessKey: '3'.repeat(44), status: 'CANCELADA', amount: '10.50',
    protocolo: '135260000000001', justificativa: 'Cliente desistiu da compra', canceladaEm: now.toISOString(),
    issuerId: 'iss-1', cnpj: '33333333333333',
    links: { self: '/v1/nfce/doc-1', xml: '/v1/nfce/doc-1/xml', eventos: '/v1/nfce/doc-1/eventos', danfe: '/v1/nfce/doc-1/danfce.pdf', danfeHtml: '/v1/nfce/doc-1/danfce.html' },
  });
});

test('FISCAL_TEXT_PATTERN takes Latin-1 printable text and refuses edges, line breaks and other scripts', (t) => {
  t.true(FISCAL_TEXT_PATTERN.test('Cancelamento: nota emitida em duplicidade, ação & <correção>'));
  for (const bad of [' espaço no inicio', 'espaço no fim ', 'linha\nquebrada', 'emoji 😀 aqui', 'controle \u0085 C1']) t.false(FISCAL_TEXT_PATTERN.test(bad), bad);
});

test('mayHaveBeenSent: a lost answer or a resumed claim without outcome consults first; a certain failure does not', (t) => {
  t.false(mayHaveBeenSent({ attempts: 1, lastOutcome: null }));
  t.true(mayHaveBeenSent({ attempts: 2, lastOutcome: 'unknown' }));
  t.true(mayHaveBeenSent({ attempts: 2, lastOutcome: null }));
  t.false(mayHaveBeenSent({ attempts: 2, lastOutcome: 'failed' }));
});
