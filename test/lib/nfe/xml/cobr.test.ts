import test from 'ava';
import { buildCobr } from '../../../../lib/nfe/xml/cobr.js';

test('buildCobr writes fat and dup, and nothing without billing', (t) => {
  t.is<string | undefined, string | undefined>(buildCobr(undefined), undefined);
  t.is<string | undefined, string | undefined>(buildCobr({ fatura: { numero: '1', valorOriginal: 10, valorLiquido: 10 }, duplicatas: [{ numero: '001', vencimento: '2026-12-01', valor: 10 }] }),
    '<cobr><fat><nFat>1</nFat><vOrig>10.00</vOrig><vDesc>0.00</vDesc><vLiq>10.00</vLiq></fat><dup><nDup>001</nDup><dVenc>2026-12-01</dVenc><vDup>10.00</vDup></dup></cobr>');
});
