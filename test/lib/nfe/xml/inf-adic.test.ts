import test from 'ava';
import { buildInfAdic, DEFAULT_INF_CPL } from '../../../../lib/nfe/xml/inf-adic.js';
import { aNfe } from '../../../support/checked-note-factories.js';

test('buildInfAdic writes the platform default text when none was sent, fisco text and procRef', (t) => {
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe()), `<infAdic><infCpl>${DEFAULT_INF_CPL}</infCpl></infAdic>`);
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe(undefined, { informacoesComplementares: 'Obs', informacoesFisco: 'Fisco', processosReferenciados: [{ numero: 'P1', origem: 1 }] })),
    '<infAdic><infAdFisco>Fisco</infAdFisco><infCpl>Obs</infCpl><procRef><nProc>P1</nProc><indProc>1</indProc></procRef></infAdic>');
});
