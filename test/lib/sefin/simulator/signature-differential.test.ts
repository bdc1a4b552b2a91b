import { createHash, createSign } from 'node:crypto';
import test from 'ava';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { buildSignedDps } from '../../../../lib/nfse/document.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { sefinSigningMaterial } from '../../../../services/sefaz/simulator/sefin/signing.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../../support/nfse-scenarios.js';
import { signedDpsShapes } from '../../../support/nfse-signed.js';
import { formerVerifyEnvelopedSignature } from '../../../support/sefin-former-signature.js';
import { generator, mutated, mutations } from '../../../support/xml-mutations.js';

/**
 * The signature check of the Sefin simulator (one XPath context of compiled XPaths; the canonical
 * forms from the received text when it is canonical, else document-level C14N with a node set;
 * issue 18) against the one it replaced (XPaths compiled per call, libxml2-wasm's subtree helper):
 * the same verdict, reason and certificate on valid DPS and on every tampering below, given the
 * document alone (libxml2's C14N) and with its text (the text path wherever it is certain).
 */
const material = testSigningMaterial();
const s = nfseScenarios()[0]!;
const dps = buildSignedDps(checked(s).dps, aDpsContext(s.issuer, 7), createSigner(material));
const sig = /<Signature[\s\S]*<\/Signature>/.exec(dps.xml)![0];
const certText = /<X509Certificate>([^<]+)<\/X509Certificate>/.exec(dps.xml)![1]!;
const otherCert = sefinSigningMaterial().certPem.replace(/-----[^-]+-----|\s/g, '');

/** The same DPS signed with RSA-SHA256 over a SHA-256 digest (both allowed by the layout). */
function resignedSha256(): string {
  let xml = dps.xml
    .replace('http://www.w3.org/2000/09/xmldsig#rsa-sha1', 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')
    .replace('http://www.w3.org/2000/09/xmldsig#sha1', 'http://www.w3.org/2001/04/xmlenc#sha256');
  const c14n = (el: XmlElement) => el.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 });
  const ns = { ds: 'http://www.w3.org/2000/09/xmldsig#' };
  let doc = XmlDocument.fromString(xml);
  const digest = createHash('sha256').update(c14n(doc.get(`//*[@Id='${dps.id}']`) as XmlElement)).digest('base64');
  doc.dispose();
  xml = xml.replace(/<DigestValue>[^<]*<\/DigestValue>/, `<DigestValue>${digest}</DigestValue>`);
  doc = XmlDocument.fromString(xml);
  const signedInfo = c14n(doc.get('//ds:SignedInfo', ns) as XmlElement);
  doc.dispose();
  const value = createSign('RSA-SHA256').update(signedInfo).sign(material.keyPem, 'base64');
  return xml.replace(/<SignatureValue>[^<]*<\/SignatureValue>/, `<SignatureValue>${value}</SignatureValue>`);
}

const cases: Record<string, { xml: string; id?: string; valid: boolean }> = {
  'valid DPS': { xml: dps.xml, valid: true },
  'valid, with an XML declaration and other spacing': { xml: `<?xml version="1.0" encoding="UTF-8"?>\n${dps.xml.replace('<DPS ', '<DPS  ')}`, valid: true },
  'valid, RSA-SHA256 over SHA-256': { xml: resignedSha256(), valid: true },
  'digest mismatch (content changed)': { xml: dps.xml.replace('Desenvolvimento de sistemas', 'Desenvolvimento de sistemaz'), valid: false },
  'wrong signature value': { xml: dps.xml.replace('<SignatureValue>', '<SignatureValue>AAAA'), valid: false },
  'SignedInfo changed after signing': { xml: dps.xml.replace('<SignedInfo>', '<SignedInfo >').replace(/(<DigestValue>)(.)/, (_m, a, c) => `${a}${c === 'A' ? 'B' : 'A'}`), valid: false },
  'wrong certificate (another key in KeyInfo)': { xml: dps.xml.replace(certText, otherCert), valid: false },
  'certificate that does not parse': { xml: dps.xml.replace(certText, 'QUJD'), valid: false },
  'no KeyInfo': { xml: dps.xml.replace(/<KeyInfo>[\s\S]*<\/KeyInfo>/, ''), valid: false },
  'wrapping: a second element with the signed Id': { xml: dps.xml.replace('</DPS>', `<Extra xmlns=""><infDPS Id="${dps.id}"></infDPS></Extra></DPS>`), valid: false },
  'wrapping: the signed infDPS moved into ds:Object, a forged one in its place': {
    xml: dps.xml.replace(/<infDPS[\s\S]*<\/infDPS>/, (inf) => inf.replace('Desenvolvimento de sistemas', 'Outro servico').replace(dps.id, `${dps.id}X`))
      .replace('</Signature>', `<Object>${/<infDPS[\s\S]*<\/infDPS>/.exec(dps.xml)![0]}</Object></Signature>`),
    valid: false,
  },
  'wrapping: a second Signature referencing the Id': { xml: dps.xml.replace('</DPS>', `${sig}</DPS>`), valid: false },
  'signature inside the signed element': { xml: dps.xml.replace(sig, '').replace('</infDPS>', `${sig}</infDPS>`), valid: false },
  'unsupported SignatureMethod': { xml: dps.xml.replace('xmldsig#rsa-sha1', 'xmldsig#dsa-sha1'), valid: false },
  'unsupported DigestMethod': { xml: dps.xml.replace('xmldsig#sha1', 'xmldsig#md5'), valid: false },
  'CanonicalizationMethod with comments': { xml: dps.xml.replace(/(<CanonicalizationMethod Algorithm="[^"]+)"/, '$1#WithComments"'), valid: false },
  'unsupported Transform': { xml: dps.xml.replace(/(<Transform Algorithm=")[^"]*c14n[^"]*"/, '$1http://www.w3.org/2001/10/xml-exc-c14n#"'), valid: false },
  'two References': { xml: dps.xml.replace(/<Reference[\s\S]*<\/Reference>/, (r) => r + r.replace(`#${dps.id}`, '#outro')), valid: false },
  'wrong Id asked': { xml: dps.xml, id: 'DPS1', valid: false },
  'an Id that would inject XPath': { xml: dps.xml, id: `x' or '1'='1`, valid: false },
  // Spelled otherwise than canonical: the text path gives up, libxml2's C14N decides.
  'valid, a comment inside the signed infDPS (not signed)': { xml: dps.xml.replace('<serie>', '<!-- c --><serie>'), valid: true },
  'valid, a comment inside SignedInfo': { xml: dps.xml.replace('<SignedInfo>', '<SignedInfo><!-- c -->'), valid: true },
  'valid, character references in text': { xml: dps.xml.replace('>Desenvolvimento', '>&#68;esenvolviment&#x6F;'), valid: true },
  'valid, CDATA around a text': { xml: dps.xml.replace('>Desenvolvimento de sistemas sob encomenda<', '><![CDATA[Desenvolvimento de sistemas sob encomenda]]><'), valid: true },
  'valid, DPS attributes reordered and single-quoted': { xml: dps.xml.replace(/^<DPS xmlns="([^"]+)" versao="([^"]+)"/, "<DPS versao='$2' xmlns='$1'"), valid: true },
  'valid, the default namespace declared again on infDPS': { xml: dps.xml.replace('<infDPS ', '<infDPS xmlns="http://www.sped.fazenda.gov.br/nfse" '), valid: true },
  'valid, the Reference URI written with a character reference': { xml: dps.xml.replace(`URI="#${dps.id}"`, `URI="&#35;${dps.id}"`), valid: true },
  'valid, empty-element tags in SignedInfo': { xml: dps.xml.replace(/(<(\w+) Algorithm="[^"]+")><\/\2>/g, '$1/>'), valid: true },
  'an Algorithm in another namespace before the plain one (the first by local name is read, as before)': {
    xml: dps.xml.replace('<CanonicalizationMethod Algorithm=', '<CanonicalizationMethod xmlns:p="urn:p" p:Algorithm="urn:other" Algorithm='), valid: false,
  },
  'a prefixed namespace declared on DPS, in scope of infDPS (digest mismatch)': { xml: dps.xml.replace('<DPS ', '<DPS xmlns:n="urn:n" '), valid: false },
  'whitespace between the elements of infDPS (digest mismatch)': { xml: dps.xml.replace('<serie>', '\n  <serie>'), valid: false },
  'wrapping: a second element whose Id is written with a character reference': {
    xml: dps.xml.replace('</DPS>', `<Extra xmlns=""><infDPS Id="&#${dps.id.charCodeAt(0)};${dps.id.slice(1)}"></infDPS></Extra></DPS>`), valid: false,
  },
  'wrapping: the Signature given a ds: prefix (its SignedInfo is no longer what was signed)': {
    xml: dps.xml.replace(/<(\/?)(Signature|SignedInfo|CanonicalizationMethod|SignatureMethod|Reference|Transforms|Transform|DigestMethod|DigestValue|SignatureValue|KeyInfo|X509Data|X509Certificate)([ >])/g, '<$1ds:$2$3')
      .replace('<ds:Signature xmlns=', '<ds:Signature xmlns:ds='),
    valid: false,
  },
};

const view = (r: { valid: boolean; reason?: string; certificate?: { fingerprint256: string } }) => ({ valid: r.valid, reason: r.reason, certificate: r.certificate?.fingerprint256 });

/** The former verdict, and the current one from the document alone and with its text (each certificate text as KeyInfo wrote it). */
function verdicts(xml: string, id: string) {
  const doc = XmlDocument.fromString(xml);
  try {
    const fromDoc = verifyEnvelopedSignature(doc, id);
    const fromText = verifyEnvelopedSignature({ doc, text: xml }, id);
    for (const r of [fromDoc, fromText]) if (r.certificate && r.certificateBase64 !== Buffer.from(r.certificate.raw).toString('base64')) throw new Error('certificateBase64 is not the certificate');
    return { before: view(formerVerifyEnvelopedSignature(doc, id)), fromDoc: view(fromDoc), fromText: view(fromText) };
  } finally {
    doc.dispose();
  }
}

for (const [name, c] of Object.entries(cases)) {
  test(`signature check, same verdict as the former one: ${name}`, (t) => {
    const { before, fromDoc, fromText } = verdicts(c.xml, c.id ?? dps.id);
    t.deepEqual(fromDoc, before);
    t.deepEqual(fromText, before);
    t.is(fromText.valid, c.valid, fromText.reason);
  });
}

test('signature check, same verdict as the former one on every DPS shape and event, as signed and once changed', (t) => {
  for (const { name, xml, id } of signedDpsShapes()) {
    const signed = verdicts(xml, id);
    t.deepEqual([signed.fromDoc, signed.fromText], [signed.before, signed.before], name);
    t.true(signed.fromText.valid, `${name}: ${signed.fromText.reason}`);
    const changed = verdicts(xml.replace(/(<tpAmb>)2</, '$11<'), id);
    t.deepEqual([changed.fromDoc, changed.fromText], [changed.before, changed.before], name);
    t.is(changed.fromText.reason, 'digest mismatch', name);
  }
});

test('signature check, same verdict as the former one on 150 DPS and events made non-canonical at random', (t) => {
  const shapes = signedDpsShapes();
  const rnd = generator(20261129);
  const mutate = mutations(rnd);
  const tally: Record<string, number> = {};
  for (let k = 0; k < 150; k++) {
    const { xml: base, id } = shapes[k % shapes.length]!;
    const xml = mutated(rnd, base, mutate);
    try {
      XmlDocument.fromString(xml).dispose();
    } catch {
      continue; // a mutation that broke well-formedness
    }
    const { before, fromDoc, fromText } = verdicts(xml, id);
    if (JSON.stringify([fromDoc, fromText]) !== JSON.stringify([before, before])) t.fail(`${xml}\nformer ${JSON.stringify(before)}\ndocument ${JSON.stringify(fromDoc)}\ntext ${JSON.stringify(fromText)}`);
    const key = before.valid ? 'valid' : before.reason!;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  t.log(tally);
  t.true((tally.valid ?? 0) > 30, 'spellings C14N does not see');
  t.true((tally['digest mismatch'] ?? 0) > 20, 'changes C14N does see');
});

test('signature check reads the certificate through the reader it is given (the simulator memoizes it)', (t) => {
  const doc = XmlDocument.fromString(dps.xml);
  const seen: string[] = [];
  try {
    const r = verifyEnvelopedSignature(doc, dps.id, (text) => { seen.push(text); return formerVerifyEnvelopedSignature(doc, dps.id).certificate!; });
    t.true(r.valid, r.reason);
    t.deepEqual(seen, [certText.replace(/\s/g, '')]);
  } finally {
    doc.dispose();
  }
});
