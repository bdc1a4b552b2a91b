import test from 'ava';
import { buildNfe, NFE_NS } from '../../../../lib/nfe/xml/nfe.js';
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
