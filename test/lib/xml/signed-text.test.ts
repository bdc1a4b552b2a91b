import test from 'ava';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { signedTexts } from '../../../lib/xml/signed-text.js';
import { createA1, createCa } from '../../support/certificates.js';
import { signedDpsShapes } from '../../support/nfse-signed.js';
import { productSignedNfe } from '../../support/product-signed.js';
import { generator, mutated, mutations } from '../../support/xml-mutations.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const a1 = createA1(createCa(), { cnpj: '12345678000195' });

/** A batch of one note signed the way this product signs: canonical text throughout. */
function productNote(): { xml: string; id: string } {
  const n = productSignedNfe({ cnpj: a1.cnpj, keyPem: a1.keyPem, certPem: a1.certPem, numero: 3 });
  return { xml: `<enviNFe xmlns="${NFE}" versao="4.00"><idLote>1</idLote><indSinc>1</indSinc>${n.xml}</enviNFe>`, id: n.id };
}

/** libxml2's C14N 1.0 of the element with Id `id` and of the SignedInfo beside it. */
function libxml2Forms(xml: string, id: string): { target: string; signedInfo: string } {
  const doc = XmlDocument.fromString(xml);
  try {
    const c14n = (el: XmlElement) => doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0, nodeSet: new Set([el]) });
    const target = doc.get(`//*[@Id='${id}']`) as XmlElement;
    const signedInfo = doc.get('//ds:SignedInfo', { ds: DS }) as XmlElement;
    return { target: c14n(target), signedInfo: c14n(signedInfo) };
  } finally {
    doc.dispose();
  }
}

test('signedTexts reads both canonical forms from the text of a note this product signed', (t) => {
  const { xml, id } = productNote();
  t.deepEqual(signedTexts(xml, id), libxml2Forms(xml, id));
});

test('signedTexts finds an XML-DSig signature by its namespace, whatever its prefix', (t) => {
  const { xml, id } = productNote();
  const prefixed = xml.replace(/<(\/?)(Signature|SignedInfo|CanonicalizationMethod|SignatureMethod|Reference|Transforms|Transform|DigestMethod|DigestValue|SignatureValue|KeyInfo|X509Data|X509Certificate)([ >])/g, '<$1ds:$2$3')
    .replace(`<ds:Signature xmlns="${DS}">`, `<ds:Signature xmlns:ds="${DS}">`);
  t.deepEqual(signedTexts(prefixed, id), libxml2Forms(prefixed, id));
  t.is(signedTexts(xml.replace(`<Signature xmlns="${DS}">`, '<Signature xmlns="urn:not-dsig">'), id), null, 'a Signature of another namespace');
});

test('signedTexts gives up (null) where libxml2 must decide', (t) => {
  const { xml, id } = productNote();
  t.is(signedTexts(xml.replace('<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"></CanonicalizationMethod>',
    '<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>'), id), null, 'SignedInfo not canonical (as xml-crypto writes it)');
  t.is(signedTexts(xml.replace('<xNome>', '<xNome><!-- c -->'), id), null, 'signed element not canonical');
  t.is(signedTexts(xml.replace('</enviNFe>', `<infNFe Id="${id}"></infNFe></enviNFe>`), id), null, 'two elements with the Id');
  t.is(signedTexts(xml.replace(`URI="#${id}"`, `URI="&#35;${id}"`), id), null, 'the Reference written otherwise');
  const inside = xml.replace(/(<Signature[\s\S]*<\/Signature>)<\/NFe>/, '</NFe>').replace('</infRespTec>', `</infRespTec>${/<Signature[\s\S]*<\/Signature>/.exec(xml)![0]}`);
  t.is(signedTexts(inside, id), null, 'a signature inside the element it signs');
  t.is(signedTexts(`<!DOCTYPE enviNFe>${xml}`, id), null);
});

test('signedTexts reads both forms of every DPS shape and event as signed, and agrees with libxml2 on 200 made non-canonical at random', (t) => {
  const shapes = signedDpsShapes();
  for (const { name, xml, id } of shapes) t.deepEqual(signedTexts(xml, id), libxml2Forms(xml, id), name);
  const rnd = generator(20261128);
  const mutate = mutations(rnd);
  let answered = 0;
  let gaveUp = 0;
  for (let k = 0; k < 200; k++) {
    const { xml: base, id } = shapes[k % shapes.length]!;
    const xml = mutated(rnd, base, mutate);
    try {
      XmlDocument.fromString(xml).dispose();
    } catch {
      continue; // a mutation that broke well-formedness
    }
    const ours = signedTexts(xml, id);
    if (ours === null) { gaveUp++; continue; }
    answered++;
    t.deepEqual(ours, libxml2Forms(xml, id), xml);
  }
  t.log(`answered ${answered}, gave up ${gaveUp}`);
  t.true(answered > 40);
  t.true(gaveUp > 40, 'the mutations reached the refusals');
});
