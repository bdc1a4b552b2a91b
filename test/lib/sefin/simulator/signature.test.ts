import test from 'ava';
import { XmlDocument } from 'libxml2-wasm';
import { buildSignedDps } from '../../../../lib/nfse/document.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../../support/nfse-scenarios.js';

const s = nfseScenarios()[0]!;
const dps = buildSignedDps(checked(s).dps, aDpsContext(s.issuer, 7), createSigner(testSigningMaterial()));

function check(xml: string, id = dps.id) {
  const doc = XmlDocument.fromString(xml);
  try {
    const r = verifyEnvelopedSignature(doc, id);
    return { valid: r.valid, reason: r.reason };
  } finally {
    doc.dispose();
  }
}

test('verifyEnvelopedSignature accepts the DPS lib/sign signed and returns the signer certificate', (t) => {
  const doc = XmlDocument.fromString(dps.xml);
  const r = verifyEnvelopedSignature(doc, dps.id);
  doc.dispose();
  t.true(r.valid, r.reason);
  t.regex(r.certificate!.subject, /12345678000195/);
});

test('verifyEnvelopedSignature accepts the same DPS with an XML declaration and other spacing inside tags (C14N of what is there, not of our bytes)', (t) => {
  t.deepEqual(check(`<?xml version="1.0" encoding="UTF-8"?>\n${dps.xml.replace('<DPS ', '<DPS  ')}`), { valid: true, reason: undefined });
});

test('verifyEnvelopedSignature refuses a changed content, a changed SignedInfo and a wrong Id', (t) => {
  t.deepEqual(check(dps.xml.replace('Desenvolvimento de sistemas', 'Desenvolvimento de sistemaz')), { valid: false, reason: 'digest mismatch' });
  t.deepEqual(check(dps.xml.replace('<SignatureValue>', '<SignatureValue>AAAA')), { valid: false, reason: 'signature value mismatch' });
  t.like(check(dps.xml, 'DPS1'), { valid: false });
  t.like(check(dps.xml, `x' or '1'='1`), { valid: false, reason: `not an Id: x' or '1'='1` });
});

test('verifyEnvelopedSignature refuses a second element with the signed Id (signature wrapping) and a missing certificate', (t) => {
  const wrapped = dps.xml.replace('</DPS>', `<Extra xmlns=""><infDPS Id="${dps.id}"></infDPS></Extra></DPS>`);
  t.deepEqual(check(wrapped), { valid: false, reason: `2 elements with Id ${dps.id}` });
  t.deepEqual(check(dps.xml.replace(/<KeyInfo>[\s\S]*<\/KeyInfo>/, '')), { valid: false, reason: 'no X509Certificate in KeyInfo' });
  t.deepEqual(check(dps.xml.replace('xmldsig#rsa-sha1', 'xmldsig#dsa-sha1')), { valid: false, reason: 'unsupported SignatureMethod' });
});

test('verifyEnvelopedSignature refuses a signature placed inside the element it signs', (t) => {
  const sig = /<Signature[\s\S]*<\/Signature>/.exec(dps.xml)![0];
  const inside = dps.xml.replace(sig, '').replace('</infDPS>', `${sig}</infDPS>`);
  t.deepEqual(check(inside), { valid: false, reason: 'signature inside the signed element' });
});
