import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { C14nCanonicalization } from 'xml-crypto';
import { createSigner, signEnveloped } from '../../../lib/sign/signer.js';
import { verifyXmlSignature } from '../../../lib/sign/verify.js';
import { validateXml } from '../../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { el, leaf, toXml } from '../../../lib/xml/writer.js';
import { buildNfe, assembleNfe } from '../../../lib/nfe/xml/nfe.js';
import { aContext, aNfe, testSigningMaterial, totalsOf } from '../../support/checked-note-factories.js';

const material = testSigningMaterial();
const signer = createSigner(material);

/** xmlsec1 on its own (the same tool verify-dfe.sh uses), for documents with no NF-e schema. */
function xmlsec1Verifies(xml: string, idAttr: string): boolean {
  const file = join(mkdtempSync(join(tmpdir(), 'sign-')), 'doc.xml');
  writeFileSync(file, xml);
  try {
    execFileSync('xmlsec1', ['--verify', '--insecure', '--enabled-key-data', 'x509', '--id-attr:Id', idAttr, file], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

test('createSigner loads the key once per certificate fingerprint', (t) => {
  t.is(createSigner(material), signer);
  t.not(createSigner({ ...material, fingerprint: `${material.fingerprint}-new` }), signer);
});

test('sign digests exactly the bytes an independent C14N makes of infNFe inside the document', (t) => {
  const note = aNfe();
  const inf = buildNfe(note, totalsOf(note), aContext(note));
  const { signatureXml, digestValue } = signer.sign(inf.canonical, inf.id);
  const xml = assembleNfe(inf, undefined, signatureXml);
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const infNFe = doc.getElementsByTagName('infNFe')[0]!;
  const c14n = new C14nCanonicalization().process(infNFe as unknown as Node, {}).toString();
  t.is(c14n, inf.canonical);
  t.is(createHash('sha1').update(c14n, 'utf8').digest('base64'), digestValue);
  t.true(verifyXmlSignature(xml, inf.id).valid);
});

test('sign uses RSA-SHA1, SHA-1, C14N 1.0 and the X509Certificate the NF-e schema demands', (t) => {
  const { signatureXml } = signer.sign('<a xmlns="urn:x" Id="A1"></a>', 'A1');
  t.true(signatureXml.startsWith('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315">'));
  t.true(signatureXml.includes('<SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1">'));
  t.true(signatureXml.includes('<DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1">'));
  t.regex(signatureXml, /<X509Certificate>[A-Za-z0-9+/=]+<\/X509Certificate>/);
});

test('signAsync (the RSA operation in the thread pool) writes byte for byte what sign writes, and refuses the same Ids', async (t) => {
  const ctx = aContext(aNfe());
  const inf = buildNfe(aNfe(), totalsOf(aNfe()), ctx);
  const together = await Promise.all([signer.signAsync(inf.canonical, inf.id), signer.signAsync(inf.canonical, inf.id)]);
  t.deepEqual(together, [signer.sign(inf.canonical, inf.id), signer.sign(inf.canonical, inf.id)]);
  t.true(verifyXmlSignature(assembleNfe(inf, undefined, together[0]!.signatureXml), inf.id).valid);
  await t.throwsAsync(async () => signer.signAsync(inf.canonical, 'x" y="1'), { instanceOf: RangeError });
});

test('sign refuses an Id that could break out of the Reference attribute', (t) => {
  t.throws(() => signer.sign('<a></a>', 'x" y="1'), { instanceOf: RangeError });
});

test('signEnveloped signs infInut into a schema-valid inutNFe that xml-crypto and xmlsec1 verify', (t) => {
  const ns = 'http://www.portalfiscal.inf.br/nfe';
  const id = 'ID35261234567800019555001000000010000000010';
  const inner = [
    leaf('tpAmb', '2'), leaf('xServ', 'INUTILIZAR'), leaf('cUF', '35'), leaf('ano', '26'), leaf('CNPJ', '12345678000195'),
    leaf('mod', '55'), leaf('serie', '1'), leaf('nNFIni', '10'), leaf('nNFFin', '10'), leaf('xJust', 'Falha no sistema & numeração pulada'),
  ].join('');
  const { elementXml, signatureXml } = signEnveloped(signer, { name: 'infInut', attrs: { Id: id }, innerXml: inner, ns });
  const xml = `<inutNFe xmlns="${ns}" versao="4.00">${elementXml}${signatureXml}</inutNFe>`;
  t.deepEqual(validateXml(NFE_SCHEMAS.inutNFe, xml).errors, []);
  t.true(verifyXmlSignature(xml, id).valid);
  t.true(xmlsec1Verifies(xml, 'infInut'));
});

test('a signed element with CR, TAB, quotes and accents in text and attributes verifies with xml-crypto and xmlsec1', (t) => {
  const tricky = 'Linha 1\r\nLinha 2\t"aspas" \'apóstrofo\' & <tag> > ç';
  const inner = toXml(el('item', [leaf('texto', tricky)], { nota: tricky }));
  const { elementXml, signatureXml } = signEnveloped(signer, { name: 'doc', attrs: { Id: 'D1', z: tricky }, innerXml: inner, ns: 'urn:teste' });
  const xml = `<envelope xmlns="urn:teste">${elementXml}${signatureXml}</envelope>`;
  t.true(xml.includes('Linha 1&#xD;\nLinha 2\t"aspas"'));
  t.true(verifyXmlSignature(xml, 'D1').valid);
  t.true(xmlsec1Verifies(xml, 'doc'));
});

test('a tampered document no longer verifies (xml-crypto and xmlsec1)', (t) => {
  const note = aNfe();
  const inf = buildNfe(note, totalsOf(note), aContext(note));
  const xml = assembleNfe(inf, undefined, signer.sign(inf.canonical, inf.id).signatureXml).replace('<vNF>', '<vNF>1');
  t.false(verifyXmlSignature(xml, inf.id).valid);
  t.false(xmlsec1Verifies(xml, 'infNFe'));
});
