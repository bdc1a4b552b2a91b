import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { verifyEnvelopedSignature } from '../../../../lib/sefaz/simulator/signature.js';
import { verifyXmlSignature } from '../../../../lib/sign/verify.js';
import { createA1, createCa } from '../../../support/certificates.js';
import { sampleNfe } from '../../../support/sample-nfe.js';

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

