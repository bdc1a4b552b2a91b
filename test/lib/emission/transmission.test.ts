import test from 'ava';
import {
  TRANSMISSION_LEASE_MS, isInFlight, isStaleAnswer, transmissionInFlightError, transmissionStart,
} from '../../../lib/emission/transmission.js';
import { checkDelayMs } from '../../../lib/emission/reconciliation.js';
import { DOCUMENT_STATUSES } from '../../../lib/emission/state.js';

const now = new Date('2026-11-22T15:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const held = { status: 'TRANSMITTING' as const, transmittingUntil: at(1), transmissions: 1 };

test('TRANSMISSION_LEASE_MS outlasts one authority call (broker timeout 90 s) and no check comes before it ends', (t) => {
  t.true(TRANSMISSION_LEASE_MS > 90_000);
  t.true(checkDelayMs(0) >= TRANSMISSION_LEASE_MS);
});

test('transmissionStart starts the next attempt with a lease from CREATED, ERROR and an answered TRANSMITTING', (t) => {
  for (const status of ['CREATED', 'ERROR', 'TRANSMITTING'] as const) {
    t.deepEqual(transmissionStart({ status, transmittingUntil: null, transmissions: 2 }, now), { kind: 'start', attempt: 3, leaseUntil: at(TRANSMISSION_LEASE_MS) });
  }
});

test('transmissionStart refuses while the lease of the attempt in flight is alive, and takes over once it expired', (t) => {
  t.deepEqual(transmissionStart(held, now), { kind: 'in-flight', until: at(1) });
  t.deepEqual(transmissionStart(held, at(1)), { kind: 'start', attempt: 2, leaseUntil: at(1 + TRANSMISSION_LEASE_MS) });
});

test('transmissionStart: a lease left on a document that is no longer TRANSMITTING holds nothing', (t) => {
  t.like(transmissionStart({ ...held, status: 'ERROR' }, now), { kind: 'start', attempt: 2 });
});

test('transmissionStart refuses a document that is not open, lease or not', (t) => {
  for (const status of DOCUMENT_STATUSES.filter((s) => !['CREATED', 'TRANSMITTING', 'ERROR'].includes(s))) {
    t.deepEqual(transmissionStart({ status, transmittingUntil: null, transmissions: 1 }, now), { kind: 'closed' }, status);
    t.deepEqual(transmissionStart({ status, transmittingUntil: at(60_000), transmissions: 1 }, now), { kind: 'closed' }, status);
  }
});

test('transmissionStart: a decision based on an older attempt is superseded; in flight still wins', (t) => {
  const answered = { status: 'TRANSMITTING' as const, transmittingUntil: null, transmissions: 3 };
  t.deepEqual(transmissionStart(answered, now, 2), { kind: 'superseded', attempt: 3 });
  t.like(transmissionStart(answered, now, 3), { kind: 'start', attempt: 4 });
  t.deepEqual(transmissionStart({ ...held, transmissions: 3 }, now, 2), { kind: 'in-flight', until: at(1) });
});

test('isInFlight: only TRANSMITTING with a lease ending after now', (t) => {
  t.true(isInFlight(held, now));
  t.false(isInFlight(held, at(1)));
  t.false(isInFlight({ ...held, transmittingUntil: null }, now));
  t.false(isInFlight({ ...held, status: 'CREATED' }, now));
});

test('isStaleAnswer: only the latest attempt speaks', (t) => {
  t.false(isStaleAnswer(2, 2));
  t.true(isStaleAnswer(1, 2));
});

test('transmissionInFlightError is a 409 CONFLICT naming the document and its current status', (t) => {
  const err = transmissionInFlightError({ id: 'd1', status: 'TRANSMITTING', number: 77, series: 1 });
  t.is(err.type, 'DOCUMENTO_EM_TRANSMISSAO');
  t.is(err.code, 409);
  t.deepEqual(err.data, { invoiceId: 'd1', status: 'TRANSMITTING', numero: 77, serie: 1 });
  t.is(err.message, 'Documento em transmissão para a autoridade fiscal; aguarde o resultado (consulte o documento ou aguarde o webhook) antes de reenviar.');
});
