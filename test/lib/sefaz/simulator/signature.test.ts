import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { XmlDocument } from 'libxml2-wasm';
import { SignedXml } from 'xml-crypto';
import { verifyEnvelopedSignature } from '../../../../lib/sefaz/simulator/signature.js';
import { signedTexts } from '../../../../lib/xml/signed-text.js';
import { productSignedNfe } from '../../../support/product-signed.js';
import { verifyXmlSignature } from '../../../../lib/sign/verify.js';
import { createA1, createCa } from '../../../support/certificates.js';
import { sampleNfe } from '../../../support/sample-nfe.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const a1 = createA1(createCa(), { cnpj: '12345678000195' });
const note = (o: Record<string, unknown> = {}) => sampleNfe({ cnpj: a1.cnpj, keyPem: a1.keyPem, certPem: a1.certPem, numero: 9, ...o });

test('verifyEnvelopedSignature accepts what xml-crypto accepts, standalone and inside its batch', (t) => {
  const n = note();
  const id = `NFe${n.accessKey}`;
  t.true(verifyXmlSignature(n.xml, id).valid);
  const r = verifyEnvelopedSignature(n.xml, id);
  t.true(r.ok);
  if (r.ok) t.is(r.certificate.fingerprint256, new X509Certificate(a1.certPem).fingerprint256);
  t.true(verifyEnvelopedSignature(`<enviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><idLote>1</idLote><indSinc>1</indSinc>${n.xml}</enviNFe>`, id).ok);
});

test('verifyEnvelopedSignature: 297 for a digest or value that does not match', (t) => {
  const n = note({ tamperAfterSigning: true });
  t.like(verifyEnvelopedSignature(n.xml, `NFe${n.accessKey}`), { ok: false, cStat: 297, reason: 'digest mismatch' });
  const good = note();
  const badValue = good.xml.replace(/<SignatureValue>(.)/, (_, ch: string) => `<SignatureValue>${ch === 'A' ? 'B' : 'A'}`);
  t.like(verifyEnvelopedSignature(badValue, `NFe${good.accessKey}`), { ok: false, cStat: 297 });
});

test('verifyEnvelopedSignature: 298 outside the NF-e profile or when the Id is ambiguous', (t) => {
  const n = note();
  const id = `NFe${n.accessKey}`;
  t.like(verifyEnvelopedSignature(n.xml.replace('xmldsig#rsa-sha1', 'xmldsig-more#rsa-sha256'), id), { ok: false, cStat: 298 });
  t.like(verifyEnvelopedSignature(n.xml.replace(/<X509Certificate>[^<]+<\/X509Certificate>/, ''), id), { ok: false, cStat: 298 });
  t.like(verifyEnvelopedSignature(`<w>${n.xml}<infNFe Id="${id}"/></w>`, id), { ok: false, cStat: 298 });
  t.like(verifyEnvelopedSignature(n.xml, 'NFe1'), { ok: false, cStat: 298 });
});

test('verifyEnvelopedSignature: 290 when the X509Certificate is not a certificate', (t) => {
  const n = note();
  t.like(verifyEnvelopedSignature(n.xml.replace(/<X509Certificate>[^<]+<\/X509Certificate>/, '<X509Certificate>QUJD</X509Certificate>'), `NFe${n.accessKey}`), { ok: false, cStat: 290 });
});


/** Both ways the simulator may hand a document over: text alone, and parsed with its text (then the text may spare the C14N). */
function bothWays(xml: string, id: string) {
  const doc = XmlDocument.fromString(xml);
  try {
    return [verifyEnvelopedSignature(xml, id), verifyEnvelopedSignature({ doc, text: xml }, id)].map((r) => (r.ok ? 'ok' : `${r.cStat} ${r.reason}`));
  } finally {
    doc.dispose();
  }
}

test('verifyEnvelopedSignature accepts notes other signers spell otherwise (C14N decides, not the spelling), and 297 once changed', (t) => {
  const spellings: Record<string, (nfe: string) => string> = {
    'attributes in another order, single quotes': (s) => s.replace(/<infNFe Id="([^"]+)" versao="4.00">/, "<infNFe versao='4.00' Id='$1'>"),
    'a character reference': (s) => s.replace('<xNome>', '<xNome>&#65;'),
    'a comment': (s) => s.replace('<ide>', '<ide><!-- gerado -->'),
    'a redundant namespace declaration': (s) => s.replace('<ide>', `<ide xmlns="${NFE}">`),
    'CRLF between elements': (s) => s.replace(/<\/(\w+)><(\w+)>/g, '</$1>\r\n<$2>'),
    'an empty-element tag': (s) => s.replace('</infAdic>', '<obsFisco/></infAdic>'),
    '&gt; in a value, spacing in tags': (s) => s.replace('<det nItem="1">', '<det  nItem="1" z="a&gt;b" >'),
  };
  for (const [name, edit] of Object.entries(spellings)) {
    const n = note({ edit });
    const id = `NFe${n.accessKey}`;
    t.deepEqual(bothWays(n.xml, id), ['ok', 'ok'], name);
    t.deepEqual(bothWays(n.xml.replace(/<xNome>([^<]*)<\/xNome>/, '<xNome>$1 ALTERADO</xNome>'), id), ['297 digest mismatch', '297 digest mismatch'], name);
  }
});

test('verifyEnvelopedSignature: a note signed as this product signs is checked from its text, 297 once changed', (t) => {
  const { xml, id } = productSignedNfe({ cnpj: a1.cnpj, keyPem: a1.keyPem, certPem: a1.certPem, numero: 9 });
  t.not(signedTexts(xml, id), null);
  t.deepEqual(bothWays(xml, id), ['ok', 'ok']);
  t.deepEqual(bothWays(xml.replace('<nNF>9</nNF>', '<nNF>8</nNF>'), id), ['297 digest mismatch', '297 digest mismatch']);
  const value = xml.replace(/<SignatureValue>(.)/, (_, ch: string) => `<SignatureValue>${ch === 'A' ? 'B' : 'A'}`);
  t.deepEqual(bothWays(value, id), ['297 signature value mismatch', '297 signature value mismatch']);
  // Signature wrapping with the Id written as a reference: the text cannot tell, the document does.
  const wrapped = `<w xmlns="${NFE}">${xml}<infNFe Id="&#78;${id.slice(1)}"></infNFe></w>`;
  t.deepEqual(bothWays(wrapped, id), ['298 2 elements with Id ' + id, '298 2 elements with Id ' + id]);
});

test('verifyEnvelopedSignature: the comments inside are not signed, even with the #WithComments transform (URI #id drops them: XMLDSig §4.3.3.3)', (t) => {
  const WITH_COMMENTS = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments';
  const n = note({ edit: (s: string) => s.replace('<ide>', '<ide><!-- gerado -->') });
  const id = `NFe${n.accessKey}`;
  const unsigned = n.xml.replace(/<Signature[\s\S]*<\/Signature>/, '');
  const sig = new SignedXml({ privateKey: a1.keyPem, publicCert: a1.certPem, canonicalizationAlgorithm: WITH_COMMENTS, signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' });
  sig.addReference({ xpath: `//*[@Id='${id}']`, transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', WITH_COMMENTS], digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1' });
  sig.computeSignature(unsigned, { location: { reference: '/*', action: 'append' } });
  const xml = sig.getSignedXml();
  t.true(verifyXmlSignature(xml, id).valid, 'xml-crypto accepts its own signature');
  t.deepEqual(bothWays(xml, id), ['ok', 'ok']);
  t.deepEqual(bothWays(xml.replace('<!-- gerado -->', '<!-- alterado -->'), id), ['ok', 'ok']);
  t.deepEqual(bothWays(xml.replace('<nNF>9</nNF>', '<nNF>8</nNF>'), id), ['297 digest mismatch', '297 digest mismatch']);
});
