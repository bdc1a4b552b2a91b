import test from 'ava';
import { buildSignedNfe, draftNfe, finishNfe } from '../../../lib/nfe/document.js';
import { renumberInfNFe } from '../../../lib/nfe/xml/renumber.js';
import { buildNfe } from '../../../lib/nfe/xml/nfe.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { aContext, aNfce, aNfe, anIssuer, testSigningMaterial, totalsOf } from '../../support/checked-note-factories.js';
import { scenarios } from '../../support/note-scenarios.js';

const signer = createSigner(testSigningMaterial());
const PROVISIONAL = 999_999_999;

test('a draft built with the provisional number and finished with the claimed one is byte for byte what buildSignedNfe writes for it, in every scenario', async (t) => {
  let finished = 0;
  for (const s of scenarios()) {
    const at = { issuer: s.issuer, tpEmis: s.tpEmis, tpAmb: s.tpAmb };
    const draft = draftNfe(s.note, totalsOf(s.note), aContext(s.note, { ...at, numero: PROVISIONAL, cNF: '11111111' }), signer);
    for (const [numero, cNF] of [[1, '00000002'], [57, '87654321'], [123_456_789, '99999998']] as const) {
      const final = aContext(s.note, { ...at, numero, cNF });
      const expected = buildSignedNfe(s.note, totalsOf(s.note), final, signer);
      const got = await finishNfe(draft, final, signer);
      t.is(got.xml, expected.xml, `${s.name} numbered ${numero}`);
      t.deepEqual(got, expected);
      finished++;
    }
  }
  t.true(finished >= 120);
});

test('the draft is refused with what buildSignedNfe refuses, before any number: XSD and a missing CSC', (t) => {
  const bad = aNfce();
  bad.naturezaOperacao = ' leading space breaks TString';
  const schema = t.throws(() => draftNfe(bad, totalsOf(bad), aContext(bad, { numero: PROVISIONAL }), signer));
  t.is((schema as any).type, 'XML_FORA_DO_ESQUEMA');
  t.true((schema as any).data.esquema.length > 0);
  const nfce = aNfce();
  const csc = t.throws(() => draftNfe(nfce, totalsOf(nfce), aContext(nfce, { numero: PROVISIONAL, issuer: anIssuer({ csc: null, cscId: null }) }), signer));
  t.is((csc as any).type, 'CSC_AUSENTE');
});

test('the draft is checked with a placeholder signature of the real one\'s shape, never a signature', (t) => {
  const note = aNfe();
  const ctx = aContext(note);
  const infNFe = buildNfe(note, totalsOf(note), ctx);
  const real = signer.sign(infNFe.canonical, infNFe.id);
  const shape = signer.shape(infNFe.canonical, infNFe.id);
  t.is(shape.digestValue, real.digestValue);
  const value = (xml: string) => /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(xml)![1]!;
  t.is(value(shape.signatureXml).length, value(real.signatureXml).length);
  t.not(value(shape.signatureXml), value(real.signatureXml));
  t.is(shape.signatureXml.replace(value(shape.signatureXml), ''), real.signatureXml.replace(value(real.signatureXml), ''));
});

test('renumbering refuses contexts that differ in more than the number, cNF and key, and a document it cannot find its parts in', (t) => {
  const note = aNfe();
  const from = aContext(note, { numero: PROVISIONAL });
  const infNFe = buildNfe(note, totalsOf(note), from);
  t.throws(() => renumberInfNFe(infNFe, from, aContext(note, { numero: 5, serie: 2 })), { instanceOf: RangeError, message: /differ/ });
  t.throws(() => renumberInfNFe(infNFe, from, aContext(note, { numero: 5, dhEmi: '2026-11-23T10:00:00-03:00' })), { instanceOf: RangeError, message: /differ/ });
  const broken = { ...infNFe, canonical: infNFe.canonical.replace(`<nNF>${PROVISIONAL}</nNF>`, '<nNF>1</nNF>') };
  t.throws(() => renumberInfNFe(broken, from, aContext(note, { numero: 5 })), { instanceOf: RangeError, message: /not found/ });
  const headless = { ...infNFe, element: infNFe.element.replace('</ide>', '</idx>') };
  t.throws(() => renumberInfNFe(headless, from, aContext(note, { numero: 5 })), { instanceOf: RangeError, message: 'renumberInfNFe: </ide> not found' });
  t.is(renumberInfNFe(infNFe, from, from), infNFe);
});
