import test from 'ava';
import { buildNfe, NFE_NS } from '../../../../lib/nfe/xml/nfe.js';
import { assertNfeSchema } from '../../../../lib/nfe/xml/validate.js';
import { money, qty, rate, scaled4To2, unitValue, weight } from '../../../../lib/nfe/xml/format.js';
import { aContext, aNfce, aNfe, totalsOf } from '../../../support/checked-note-factories.js';

test('buildNfe gives infNFe in document form and canonical form differing only by the namespace', (t) => {
  const note = aNfe();
  const ctx = aContext(note);
  const inf = buildNfe(note, totalsOf(note), ctx);
  t.is(inf.id, `NFe${ctx.accessKey}`);
  t.true(inf.element.startsWith(`<infNFe Id="NFe${ctx.accessKey}" versao="4.00"><ide>`));
  t.is(inf.canonical, inf.element.replace('<infNFe ', `<infNFe xmlns="${NFE_NS}" `));
  t.regex(inf.element, /<\/total><transp>.*<\/transp><pag>.*<\/pag><infAdic>.*<\/infAdic><infRespTec>.*<\/infRespTec><\/infNFe>$/);
});

test('buildNfe leaves cobr out of NFC-e', (t) => {
  const note = aNfce(undefined, { cobranca: { fatura: { numero: '1', valorOriginal: 21, valorLiquido: 21 } } });
  t.false(buildNfe(note, totalsOf(note), aContext(note)).element.includes('<cobr>'));
});

test('buildNfe refuses a context whose key was built from other fields', (t) => {
  const note = aNfe();
  const ctx = { ...aContext(note), numero: 999 };
  t.throws(() => buildNfe(note, totalsOf(note), ctx), { instanceOf: RangeError });
});

test('assertNfeSchema refuses malformed or non-conforming XML with XML_FORA_DO_ESQUEMA', (t) => {
  for (const xml of ['<NFe', `<NFe xmlns="${NFE_NS}"></NFe>`]) {
    const err = t.throws(() => assertNfeSchema(xml));
    t.is((err as any).type, 'XML_FORA_DO_ESQUEMA');
    t.is((err as any).code, 422);
  }
});

test('layout number formats are fixed-point, never exponent', (t) => {
  t.is(money(1n), '0.01');
  t.is(money(123456789012345n), '1234567890123.45');
  t.is(rate(18), '18.00');
  t.is(rate(0.9), '0.90');
  t.is(rate(4.6512), '4.6512');
  t.is(qty(1e-4), '0.0001');
  t.is(unitValue(1e-10), '0.0000000001');
  t.is(unitValue(12345678901.5), '12345678901.50');
  t.is(weight(0.5), '0.500');
  t.is(scaled4To2(1_000_050n), '100.01');
});
