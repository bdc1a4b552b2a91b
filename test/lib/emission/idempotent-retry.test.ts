import test from 'ava';
import { checkSameRequest, isSettledAnswer, retryAction, type BoundDocument } from '../../../lib/emission/idempotent-retry.js';
import { TRANSMISSION_LEASE_MS } from '../../../lib/emission/transmission.js';
import { RESEND_WINDOW_MS } from '../../../lib/emission/resend.js';
import { DOCUMENT_STATUSES } from '../../../lib/emission/state.js';
import { throwsCode } from '../../support/domain-errors.js';

const now = new Date('2026-11-22T15:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const doc = (over: Partial<BoundDocument> = {}): BoundDocument => ({
  status: 'TRANSMITTING', createdAt: ago(10 * 60_000), transmissions: 1, transmittingUntil: null, fingerprint: 'f1', ...over,
});

test('checkSameRequest refuses another body under the key with IDEMPOTENCIA_CORPO_DIVERGENTE naming the key', (t) => {
  const err = throwsCode(t, () => checkSameRequest(doc(), 'f2', 'pedido-1'), 'IDEMPOTENCIA_CORPO_DIVERGENTE');
  t.deepEqual(err.data, { idempotencyKey: 'pedido-1' });
  t.is(err.code, 422);
});

test('checkSameRequest accepts the same body, and a document bound before fingerprints were kept', (t) => {
  t.notThrows(() => checkSameRequest(doc(), 'f1', 'k'));
  t.notThrows(() => checkSameRequest(doc({ fingerprint: null }), 'anything', 'k'));
});

test('retryAction answers a final note, one pending in contingency, and one whose attempt is in flight', (t) => {
  for (const status of ['AUTHORIZED', 'REJECTED', 'DENEGADA', 'CANCELADA', 'CONTINGENCIA_PENDENTE'] as const) {
    t.deepEqual(retryAction(doc({ status }), now), { kind: 'answer' }, status);
  }
  t.deepEqual(retryAction(doc({ transmittingUntil: new Date(now.getTime() + 1) }), now), { kind: 'answer' });
});

test('retryAction consults by key a note whose attempt died or went unanswered, since it may have reached the authority', (t) => {
  t.deepEqual(retryAction(doc({ transmittingUntil: now }), now), { kind: 'consult' }); // lease just expired
  t.deepEqual(retryAction(doc({ transmittingUntil: null }), now), { kind: 'consult' }); // answered "unknown"
  t.deepEqual(retryAction(doc({ status: 'ERROR', transmissions: 2 }), now), { kind: 'consult' });
  t.deepEqual(retryAction(doc({ status: 'CREATED', transmissions: 1 }), now), { kind: 'consult' });
});

test('retryAction transmits a note never sent only once its creating request had a lease worth of time', (t) => {
  t.deepEqual(retryAction(doc({ status: 'CREATED', transmissions: 0, createdAt: ago(TRANSMISSION_LEASE_MS - 1) }), now), { kind: 'answer' });
  t.deepEqual(retryAction(doc({ status: 'CREATED', transmissions: 0, createdAt: ago(TRANSMISSION_LEASE_MS) }), now), { kind: 'transmit' });
});

test('retryAction only answers an open note past the resend window: it is no longer sent', (t) => {
  t.deepEqual(retryAction(doc({ createdAt: ago(RESEND_WINDOW_MS + 1) }), now), { kind: 'answer' });
  t.deepEqual(retryAction(doc({ status: 'CREATED', transmissions: 0, createdAt: ago(RESEND_WINDOW_MS + 1) }), now), { kind: 'answer' });
});

test('isSettledAnswer: only a terminal state may be replayed as it is', (t) => {
  t.deepEqual(DOCUMENT_STATUSES.filter(isSettledAnswer), ['AUTHORIZED', 'REJECTED', 'DENEGADA', 'CANCELADA']);
});
