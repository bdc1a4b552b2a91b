import test from 'ava';
import { contingencyCStat, svcOf } from '../../../../lib/sefaz/simulator/contingency.js';

const now = new Date('2026-03-10T12:00:00Z');
const entry = { dhCont: '2026-03-10T08:00:00-03:00', xJust: 'Falha de comunicacao com a SEFAZ' };
const none = { dhCont: null, xJust: null };

test('contingencyCStat: tpEmis against the model and the authorizer addressed', (t) => {
  t.is(contingencyCStat({ mod: '55', tpEmis: '6', ...entry }, 'SVCAN', now), null);
  t.is(contingencyCStat({ mod: '55', tpEmis: '7', ...entry }, 'SVCRS', now), null);
  t.is(contingencyCStat({ mod: '55', tpEmis: '7', ...entry }, 'SVCAN', now), 713);
  t.is(contingencyCStat({ mod: '55', tpEmis: '1', ...none }, 'SVCRS', now), 713);
  t.is(contingencyCStat({ mod: '65', tpEmis: '6', ...entry }, 'SVCAN', now), 783);
  t.is(contingencyCStat({ mod: '55', tpEmis: '6', ...entry }, null, now), 570);
  t.is(contingencyCStat({ mod: '55', tpEmis: '3', ...entry }, null, now), 570);
  t.is(contingencyCStat({ mod: '55', tpEmis: '6', ...entry }, undefined, now), null, 'the UF-less alias names no authorizer');
  t.is(contingencyCStat({ mod: '55', tpEmis: '9', ...entry }, null, now), 711);
  t.is(contingencyCStat({ mod: '65', tpEmis: '9', ...entry }, null, now), null);
  t.is(contingencyCStat({ mod: '55', tpEmis: '2', ...entry }, null, now), null, 'FS-IA goes to the normal authorizer');
});

test('contingencyCStat: the entry into contingency (556, 557, 558)', (t) => {
  t.is(contingencyCStat({ mod: '55', tpEmis: '1', ...none }, null, now), null);
  t.is(contingencyCStat({ mod: '55', tpEmis: '1', ...entry }, null, now), 556);
  t.is(contingencyCStat({ mod: '65', tpEmis: '9', ...none }, null, now), 557);
  t.is(contingencyCStat({ mod: '65', tpEmis: '9', dhCont: entry.dhCont, xJust: null }, null, now), 557);
  t.is(contingencyCStat({ mod: '65', tpEmis: '9', dhCont: '2026-03-10T09:04:00-03:00', xJust: entry.xJust }, null, now), null, 'within the 5 minutes of tolerance');
  t.is(contingencyCStat({ mod: '65', tpEmis: '9', dhCont: '2026-03-10T09:06:00-03:00', xJust: entry.xJust }, null, now), 558);
});

test('svcOf: only a path that names nothing but one SVC is an SVC', (t) => {
  t.is(svcOf(['SVCAN']), 'SVCAN');
  t.is(svcOf(['SVCRS']), 'SVCRS');
  t.is(svcOf(['SVAN']), null);
  t.is(svcOf(['SP']), null);
  t.is(svcOf([]), undefined);
});
