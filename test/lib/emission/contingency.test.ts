import test from 'ava';
import {
  afterConsult, AUTHORITY_PROCESSING_WINDOW_MS, CONTINGENCY_DEADLINE_MS, heldRekeyDue, contingencyAllowed, contingencyInfo, contingencyOutcome, contingencyTransmissionStart, contingencyView,
  consultsAfterOnlineFailure, entryAtEmission, isContingencyExpired, needsMonitor, nextContingencyTryAt, transmitsNow,
} from '../../../lib/emission/contingency.js';
import { TRANSMISSION_LEASE_MS } from '../../../lib/emission/transmission.js';

const now = new Date('2026-11-22T15:00:00.000Z');
const msg = { cStat: 217, xMotivo: 'Rejeição: NF-e não consta na base de dados da SEFAZ' };
const authorized = { kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', protocol: '135260000000001', receivedAt: '2026-11-22T12:00:00-03:00', protNFeXml: '<protNFe/>' } as any;

test('contingencyAllowed: NFC-e unless contingencia is false; NF-e never', (t) => {
  t.true(contingencyAllowed('65', undefined));
  t.true(contingencyAllowed('65', true));
  t.false(contingencyAllowed('65', false));
  t.false(contingencyAllowed('55', true));
  t.false(contingencyAllowed('55', undefined));
});

test('entryAtEmission: contingencia true enters without asking the monitor', (t) => {
  t.is(entryAtEmission('65', true, null), 'solicitada');
  t.false(needsMonitor('65', true));
});

test('entryAtEmission: a UF confirmed down enters; up, unknown or an unavailable monitor does not', (t) => {
  t.true(needsMonitor('65', undefined));
  t.is(entryAtEmission('65', undefined, { confirmedDown: true, status: 'down' }), 'autorizadora-indisponivel');
  t.is(entryAtEmission('65', undefined, { confirmedDown: false, status: 'up' }), null);
  t.is(entryAtEmission('65', undefined, { confirmedDown: false, status: null }), null);
  t.is(entryAtEmission('65', undefined, null), null);
});

test('entryAtEmission: contingencia false and NF-e never enter, even with the UF down', (t) => {
  t.is(entryAtEmission('65', false, { confirmedDown: true }), null);
  t.is(entryAtEmission('55', undefined, { confirmedDown: true }), null);
  t.is(entryAtEmission('55', true, null), null);
  t.false(needsMonitor('65', false));
  t.false(needsMonitor('55', undefined));
});

test('consultsAfterOnlineFailure: only infrastructure failures, never an answer nor a settled 204', (t) => {
  t.true(consultsAfterOnlineFailure({ kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' }));
  t.true(consultsAfterOnlineFailure({ kind: 'unknown', reason: 'timeout-after-send', detail: '30 s' }));
  t.false(consultsAfterOnlineFailure({ kind: 'unknown', reason: 'duplicate-key', detail: '204' }));
  t.false(consultsAfterOnlineFailure({ kind: 'rejected', cStat: 225, xMotivo: 'Rejeição: Falha no Schema XML' }));
  t.false(consultsAfterOnlineFailure(authorized));
  t.false(consultsAfterOnlineFailure({ kind: 'processing', receipt: '1', cStat: 103, xMotivo: 'Lote recebido' } as any));
});

const failedSend = { kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' } as const;
const lostAnswer = { kind: 'unknown', reason: 'timeout-after-send', detail: 'sem resposta em 30 s' } as const;

test('afterConsult: not found after a send that reached nothing re-keys; authorized is the outcome; a failed or refused consult is indeterminate', (t) => {
  t.deepEqual(afterConsult('ERROR', failedSend, { kind: 'not-found', ...msg }, now), { kind: 'rekey' });
  t.like(afterConsult('TRANSMITTING', lostAnswer, authorized, now), { kind: 'outcome', transition: { to: 'AUTHORIZED', event: 'invoice.authorized' } });
  t.like(afterConsult('ERROR', failedSend, { kind: 'denied', cStat: 302, xMotivo: 'Uso Denegado' }, now), { kind: 'outcome', transition: { to: 'DENEGADA' } });
  t.deepEqual(afterConsult('ERROR', failedSend, { kind: 'failed', reason: 'timeout-before-send', detail: 'x' }, now), { kind: 'indeterminate' });
  t.deepEqual(afterConsult('TRANSMITTING', lostAnswer, { kind: 'rejected', cStat: 226, xMotivo: 'Rejeição: UF diverge' }, now), { kind: 'indeterminate' });
});

test('afterConsult: not found after a send that may have reached the authority holds the re-key for the processing window', (t) => {
  t.is(AUTHORITY_PROCESSING_WINDOW_MS, 2 * 60_000);
  t.deepEqual(afterConsult('TRANSMITTING', lostAnswer, { kind: 'not-found', ...msg }, now), { kind: 'hold', until: new Date(now.getTime() + AUTHORITY_PROCESSING_WINDOW_MS) });
  const lostConnection = { kind: 'unknown', reason: 'connection-lost-after-send', detail: 'socket hang up' } as const;
  t.is(afterConsult('TRANSMITTING', lostConnection, { kind: 'not-found', ...msg }, now).kind, 'hold');
});

test('heldRekeyDue: only a consult asked at or after the end of the window, for the held attempt of a still open note', (t) => {
  const hold = { attempt: 1, rekeyAfter: new Date(now.getTime() + AUTHORITY_PROCESSING_WINDOW_MS) };
  const open = { status: 'TRANSMITTING', transmissions: 1 } as const;
  t.false(heldRekeyDue(hold, open, new Date(hold.rekeyAfter.getTime() - 1)));
  t.true(heldRekeyDue(hold, open, hold.rekeyAfter));
  t.true(heldRekeyDue(hold, { status: 'ERROR', transmissions: 1 }, new Date(hold.rekeyAfter.getTime() + 60_000)));
  t.false(heldRekeyDue(hold, { status: 'TRANSMITTING', transmissions: 2 }, hold.rekeyAfter), 'another transmission started since');
  t.false(heldRekeyDue(hold, { status: 'AUTHORIZED', transmissions: 1 }, hold.rekeyAfter));
  t.false(heldRekeyDue(hold, { status: 'CONTINGENCIA_PENDENTE', transmissions: 1 }, hold.rekeyAfter));
});

test('contingencyInfo: the deadline is the entry plus 24 hours; the view writes it as ISO', (t) => {
  const info = contingencyInfo('solicitada', 'Sem comunicacao com a SEFAZ', now);
  t.is(info.prazo.getTime() - now.getTime(), CONTINGENCY_DEADLINE_MS);
  t.deepEqual(contingencyView(info), { motivo: 'solicitada', justificativa: 'Sem comunicacao com a SEFAZ', prazo: '2026-11-23T15:00:00.000Z' });
});

test('contingencyTransmissionStart: only from CONTINGENCIA_PENDENTE at the attempt seen at the claim', (t) => {
  t.deepEqual(contingencyTransmissionStart({ status: 'CONTINGENCIA_PENDENTE', transmissions: 0 }, now, 0), { kind: 'start', attempt: 1, leaseUntil: new Date(now.getTime() + TRANSMISSION_LEASE_MS) });
  t.deepEqual(contingencyTransmissionStart({ status: 'CONTINGENCIA_PENDENTE', transmissions: 2 }, now, 1), { kind: 'superseded', attempt: 2 });
  for (const status of ['TRANSMITTING', 'AUTHORIZED', 'REJECTED', 'ERROR'] as const) t.deepEqual(contingencyTransmissionStart({ status, transmissions: 0 }, now, 0), { kind: 'closed' });
});

test('transmitsNow: transmits unless the monitor confirms the UF down (unknown is tried)', (t) => {
  t.true(transmitsNow({ confirmedDown: false, status: 'up' }));
  t.true(transmitsNow(null));
  t.false(transmitsNow({ confirmedDown: true, status: 'down' }));
});

test('nextContingencyTryAt backs off 1, 2, 5, 10, then 15 minutes', (t) => {
  t.deepEqual([0, 1, 2, 3, 4, 9].map((n) => (nextContingencyTryAt(n, now).getTime() - now.getTime()) / 60_000), [1, 2, 5, 10, 15, 15]);
  t.throws(() => nextContingencyTryAt(-1, now), { instanceOf: RangeError });
});

test('contingencyOutcome: failure before sending returns to CONTINGENCIA_PENDENTE; answers follow the normal table', (t) => {
  t.like(contingencyOutcome({ kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' }), { to: 'CONTINGENCIA_PENDENTE', event: null });
  t.like(contingencyOutcome(authorized), { to: 'AUTHORIZED', event: 'invoice.authorized' });
  t.like(contingencyOutcome({ kind: 'rejected', cStat: 225, xMotivo: 'Rejeição: Falha no Schema XML' }), { to: 'REJECTED', event: 'invoice.rejected' });
  t.like(contingencyOutcome({ kind: 'unknown', reason: 'timeout-after-send', detail: 'x' }), { to: null });
});

test('isContingencyExpired: after the deadline, once, and never for an authorized note', (t) => {
  const doc = { status: 'CONTINGENCIA_PENDENTE' as const, tpEmis: 9, contingencia: contingencyInfo('solicitada', 'Sem comunicacao com a SEFAZ', now) };
  const later = new Date(now.getTime() + CONTINGENCY_DEADLINE_MS);
  t.false(isContingencyExpired(doc, false, new Date(later.getTime() - 1)));
  t.true(isContingencyExpired(doc, false, later));
  t.false(isContingencyExpired(doc, true, later));
  t.false(isContingencyExpired({ ...doc, status: 'AUTHORIZED' }, false, later));
  t.false(isContingencyExpired({ ...doc, tpEmis: 1 }, false, later));
});
