import test from 'ava';
import { decideAvailability, isConfirmedDown, type ConfirmedState } from '../../../lib/contingency/availability.js';
import type { StatusResult } from '../../../lib/sefaz/results.js';

const now = new Date('2026-11-22T12:00:00.000Z');
const up: StatusResult = { kind: 'up', cStat: 107, xMotivo: 'Serviço em Operação', checkedAt: '2026-11-22T09:00:00-03:00' };
const down108: StatusResult = { kind: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)', checkedAt: '2026-11-22T09:00:00-03:00' };
const down109: StatusResult = { kind: 'down', cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão', checkedAt: '2026-11-22T09:00:00-03:00' };
const wasUp: ConfirmedState = { status: 'up', cStat: 107, xMotivo: 'Serviço em Operação', checkedAt: '2026-11-22T11:55:00.000Z' };
const wasDown: ConfirmedState = { status: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)', checkedAt: '2026-11-22T11:55:00.000Z' };
const decide = (previous: ConfirmedState | null, result: StatusResult) => decideAvailability({ uf: 'SP', ambiente: 'homologacao', previous, result, now });

test('decideAvailability records the first observation without an event, up or down', (t) => {
  t.deepEqual(decide(null, up), { kind: 'first', state: { status: 'up', cStat: 107, xMotivo: 'Serviço em Operação', checkedAt: '2026-11-22T12:00:00.000Z' } });
  t.like(decide(null, down109), { kind: 'first', state: { status: 'down', cStat: 109 } });
});

test('decideAvailability emits a transition from up to down with exactly the spec data fields', (t) => {
  const d = decide(wasUp, down108);
  t.is(d.kind, 'transition');
  if (d.kind !== 'transition') return;
  t.deepEqual(d.event, { uf: 'SP', status: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)', ambiente: 'homologacao', checkedAt: '2026-11-22T12:00:00.000Z' });
  t.deepEqual(d.state, { status: 'down', cStat: 108, xMotivo: d.event.xMotivo, checkedAt: d.event.checkedAt });
});

test('decideAvailability emits a transition from down back to up', (t) => {
  t.like(decide(wasDown, up), { kind: 'transition', event: { status: 'up', cStat: 107, xMotivo: 'Serviço em Operação' } });
});

test('decideAvailability does not emit when the same status is confirmed again, even with another cStat', (t) => {
  t.like(decide(wasUp, up), { kind: 'unchanged', state: { status: 'up', cStat: 107 } });
  t.like(decide(wasDown, down109), { kind: 'unchanged', state: { status: 'down', cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão' } });
});

test('decideAvailability treats every infrastructure failure as our own, never as down', (t) => {
  for (const reason of ['connect', 'tls', 'timeout-before-send', 'timeout-after-send', 'circuit-open', 'http-status', 'malformed-response'] as const) {
    for (const previous of [null, wasUp, wasDown]) {
      const d = decide(previous, { kind: 'failed', reason, detail: 'x' });
      t.deepEqual(d, { kind: 'own-failure', failure: { reason, detail: 'x', at: now.toISOString() } }, reason);
    }
  }
});

test('decideAvailability treats an authority answer about us (656, 280) as our own failure, not down', (t) => {
  const d = decide(wasUp, { kind: 'refused', cStat: 656, xMotivo: 'Rejeição: Consumo Indevido', checkedAt: '2026-11-22T09:00:00-03:00' });
  t.deepEqual(d, {
    kind: 'own-failure',
    failure: { reason: 'authority-refused-monitor', detail: 'cStat 656 is not a service status (107/108/109)', at: now.toISOString(), cStat: 656, xMotivo: 'Rejeição: Consumo Indevido' },
  });
  t.like(decide(null, { kind: 'refused', cStat: 280, xMotivo: 'Rejeição: Certificado Transmissor inválido', checkedAt: '2026-11-22T09:00:00-03:00' }), { kind: 'own-failure' });
});

test('isConfirmedDown is true only for a confirmed down', (t) => {
  t.true(isConfirmedDown(wasDown));
  t.false(isConfirmedDown(wasUp));
  t.false(isConfirmedDown(null));
});
