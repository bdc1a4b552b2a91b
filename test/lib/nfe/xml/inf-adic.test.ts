import test from 'ava';
import { buildInfAdic, DEFAULT_INF_CPL } from '../../../../lib/nfe/xml/inf-adic.js';
import { aNfe } from '../../../support/checked-note-factories.js';

test('buildInfAdic writes the platform default text when none was sent, fisco text and procRef', (t) => {
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe()), `<infAdic><infCpl>${DEFAULT_INF_CPL}</infCpl></infAdic>`);
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe(undefined, { informacoesComplementares: 'Obs', informacoesFisco: 'Fisco', processosReferenciados: [{ numero: 'P1', origem: 1 }] })),
    '<infAdic><infAdFisco>Fisco</infAdFisco><infCpl>Obs</infCpl><procRef><nProc>P1</nProc><indProc>1</indProc></procRef></infAdic>');
});

test('buildInfAdic appends the Lei 12.741 text to the sent or default complementary text', (t) => {
  const approximateTax = { federal: 1n, estadual: 2n, municipal: 0n, total: 3n, texto: 'Tributos aproximados (Lei 12.741/2012): ...' };
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe(undefined, { informacoesComplementares: 'Obs', approximateTax })),
    '<infAdic><infCpl>Obs Tributos aproximados (Lei 12.741/2012): ...</infCpl></infAdic>');
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe(undefined, { approximateTax })),
    `<infAdic><infCpl>${DEFAULT_INF_CPL} Tributos aproximados (Lei 12.741/2012): ...</infCpl></infAdic>`);
});
