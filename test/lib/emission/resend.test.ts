import test from 'ava';
import { resendEligibility, RESEND_WINDOW_MS } from '../../../lib/emission/resend.js';
import { buildAccessKey } from '../../../lib/nfe/access-key.js';

const key = buildAccessKey({ cUF: '35', aamm: '2611', document: '11222333000181', model: '55', serie: 1, numero: 77, tpEmis: 1, cNF: '12345678' });
const created = new Date('2026-11-22T15:00:00Z');
const doc = { status: 'ERROR' as const, accessKey: key, createdAt: created, tpEmis: 1, transmittingUntil: null };
const at = (ms: number) => new Date(created.getTime() + ms);

test('resendEligibility allows CREATED, TRANSMITTING and ERROR within 7 days', (t) => {
  for (const status of ['CREATED', 'TRANSMITTING', 'ERROR'] as const) t.deepEqual(resendEligibility({ ...doc, status }, at(RESEND_WINDOW_MS)), { kind: 'resend' });
});

test('resendEligibility refuses for now a TRANSMITTING document whose transmission lease is alive', (t) => {
  const until = at(120_000);
  const inFlight = { ...doc, status: 'TRANSMITTING' as const, transmittingUntil: until };
  t.deepEqual(resendEligibility(inFlight, at(119_999)), { kind: 'in-flight', until });
  t.deepEqual(resendEligibility(inFlight, until), { kind: 'resend' }); // expired: the node holding it is presumed dead
  t.deepEqual(resendEligibility({ ...doc, status: 'TRANSMITTING', transmittingUntil: null }, created), { kind: 'resend' }); // answered, still open
});

test('resendEligibility: permanent refusals come before the in-flight one', (t) => {
  const inFlight = { ...doc, status: 'TRANSMITTING' as const, transmittingUntil: new Date(8 * RESEND_WINDOW_MS + created.getTime()) };
  t.like(resendEligibility(inFlight, at(RESEND_WINDOW_MS + 1)), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
  t.like(resendEligibility({ ...inFlight, tpEmis: 9 }, created), { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL' });
});

test('resendEligibility refuses NUMERO_JA_UTILIZADO after 7 days', (t) => {
  t.like(resendEligibility(doc, at(RESEND_WINDOW_MS + 1)), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
});

test('resendEligibility refuses NUMERO_JA_UTILIZADO for a blank or invalid stored key', (t) => {
  t.like(resendEligibility({ ...doc, accessKey: null }, created), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
  t.like(resendEligibility({ ...doc, accessKey: '' }, created), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
  t.like(resendEligibility({ ...doc, accessKey: key.slice(0, 43) }, created), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
  const wrongDigit = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
  t.like(resendEligibility({ ...doc, accessKey: wrongDigit }, created), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
});

test('resendEligibility refuses NUMERO_JA_UTILIZADO for a document with an outcome', (t) => {
  for (const status of ['AUTHORIZED', 'REJECTED', 'DENEGADA', 'CANCELADA'] as const) {
    t.like(resendEligibility({ ...doc, status }, created), { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO' });
  }
});

test('resendEligibility refuses RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL for a note in CONTINGENCIA_PENDENTE, even after 7 days', (t) => {
  t.like(resendEligibility({ ...doc, status: 'CONTINGENCIA_PENDENTE', tpEmis: 9 }, created), { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL' });
  t.like(resendEligibility({ ...doc, status: 'CONTINGENCIA_PENDENTE', tpEmis: 9 }, at(RESEND_WINDOW_MS + 1)), { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL' });
});

test('resendEligibility refuses RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL for a contingency key', (t) => {
  t.like(resendEligibility({ ...doc, tpEmis: 9 }, created), { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL' });
});
