import { createHash, createSign } from 'node:crypto';
import test from 'ava';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { buildSignedDps } from '../../../../lib/nfse/document.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { sefinSigningMaterial } from '../../../../services/sefaz/simulator/sefin/signing.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../../support/nfse-scenarios.js';
import { formerVerifyEnvelopedSignature } from '../../../support/sefin-former-signature.js';

/**
 * The signature check of the Sefin simulator (compiled XPaths, document-level C14N with a node set,
 * issue 18) against the one it replaced (XPaths compiled per call, libxml2-wasm's subtree helper):
 * the same verdict, reason and certificate on valid DPS and on every tampering below.
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
};

for (const [name, c] of Object.entries(cases)) {
  test(`signature check, same verdict as the former one: ${name}`, (t) => {
    const doc = XmlDocument.fromString(c.xml);
    try {
      const id = c.id ?? dps.id;
      const now = verifyEnvelopedSignature(doc, id);
      const before = formerVerifyEnvelopedSignature(doc, id);
      const view = (r: { valid: boolean; reason?: string; certificate?: { fingerprint256: string } }) => ({ valid: r.valid, reason: r.reason, certificate: r.certificate?.fingerprint256 });
      t.deepEqual(view(now), view(before));
      t.is(now.valid, c.valid, now.reason);
      if (now.certificate) t.is(now.certificateBase64, Buffer.from(now.certificate.raw).toString('base64'));
    } finally {
      doc.dispose();
    }
  });
}

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
