import test from 'ava';
import { transition, isTerminal, OPEN_STATUSES, TERMINAL_STATUSES } from '../../../lib/emission/state.js';
import type { AuthorizationResult, ConsultResult } from '../../../lib/sefaz/results.js';

const prot = { protocol: '135260000000001', receivedAt: '2026-11-22T17:00:00-03:00', digest: 'x', protNFeXml: '<protNFe/>' };
const auth = (r: AuthorizationResult) => ({ kind: 'authorization' as const, result: r });
const cons = (r: ConsultResult) => ({ kind: 'consult' as const, result: r });

test('transition: authorized answer moves TRANSMITTING to AUTHORIZED with invoice.authorized', (t) => {
  t.deepEqual(transition('TRANSMITTING', auth({ kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', ...prot })), { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' });
});

test('transition: fiscal rejection moves to REJECTED with invoice.rejected and the verbatim message', (t) => {
  t.deepEqual(transition('TRANSMITTING', auth({ kind: 'rejected', cStat: 539, xMotivo: 'Rejeição: Duplicidade' })), { to: 'REJECTED', motivo: '539 - Rejeição: Duplicidade', event: 'invoice.rejected' });
});

test('transition: uso denegado is the terminal DENEGADA', (t) => {
  t.like(transition('TRANSMITTING', auth({ kind: 'denied', cStat: 302, xMotivo: 'Uso Denegado' })), { to: 'DENEGADA', event: 'invoice.rejected' });
});

test('transition: failure before sending is ERROR, unknown and processing stay indeterminate', (t) => {
  t.like(transition('TRANSMITTING', auth({ kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' })), { to: 'ERROR', event: null });
  t.like(transition('TRANSMITTING', auth({ kind: 'unknown', reason: 'timeout-after-send', detail: 't' })), { to: null });
  t.like(transition('TRANSMITTING', auth({ kind: 'processing', receipt: '1', cStat: 103, xMotivo: 'Lote recebido' })), { to: null });
});

test('transition: consult authorized ends an open document; not-found asks to retransmit; failed waits', (t) => {
  for (const from of OPEN_STATUSES) {
    t.like(transition(from, cons({ kind: 'authorized', cStat: 100, xMotivo: 'ok', ...prot })), { to: 'AUTHORIZED', event: 'invoice.authorized' });
    t.like(transition(from, cons({ kind: 'not-found', cStat: 217, xMotivo: 'NF-e não consta' })), { to: null, retransmit: true });
    t.like(transition(from, cons({ kind: 'failed', reason: 'timeout-before-send', detail: 'x' })), { to: null });
    // A refused consult is about the query, not the note: never REJECTED from it.
    t.deepEqual(transition(from, cons({ kind: 'rejected', cStat: 226, xMotivo: 'Código da UF do Emitente diverge da UF autorizadora' })),
      { to: null, motivo: 'Consulta pela chave recusada (226 - Código da UF do Emitente diverge da UF autorizadora); nova tentativa agendada.' });
  }
});

test('transition: a terminal document never moves again (exactly one terminal event)', (t) => {
  for (const from of TERMINAL_STATUSES) {
    t.true(isTerminal(from));
    t.deepEqual(transition(from, auth({ kind: 'rejected', cStat: 204, xMotivo: 'Duplicidade' })), { to: null, motivo: null });
    t.deepEqual(transition(from, cons({ kind: 'authorized', cStat: 100, xMotivo: 'ok', ...prot })), { to: null, motivo: null });
    t.deepEqual(transition(from, { kind: 'transmit' }), { to: null, motivo: null });
  }
});

test('transition: transmit starts from CREATED, ERROR, TRANSMITTING and CONTINGENCIA_PENDENTE', (t) => {
  for (const from of [...OPEN_STATUSES, 'CONTINGENCIA_PENDENTE' as const]) t.like(transition(from, { kind: 'transmit' }), { to: 'TRANSMITTING' });
});
