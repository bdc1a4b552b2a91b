import { X509Certificate } from 'node:crypto';
import test from 'ava';
import { certificateCnpj } from '../../../../lib/sefaz/simulator/certificate-cnpj.js';
import { judgeChain } from '../../../../lib/sefaz/simulator/signer-certificate.js';
import { SignerCertificates } from '../../../../services/sefaz/simulator/signer-certificates.js';
import { sefinSigningMaterial } from '../../../../services/sefaz/simulator/sefin/signing.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';

const keyInfoText = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
const material = testSigningMaterial();
const text = keyInfoText(material.certPem);
/** Signed by the Sefin simulator's own CA, which no one trusts. */
const foreign = keyInfoText(sefinSigningMaterial().certPem);

test('SignerCertificates parses a KeyInfo text once and answers the CNPJ certificateCnpj reads from it', (t) => {
  const certs = new SignerCertificates();
  const cert = certs.certificate(text);
  t.is(certs.certificate(text), cert);
  t.is(certs.cnpj(text), certificateCnpj(cert.raw));
  t.is(certs.cnpj(text), '12345678000195');
});

test('SignerCertificates throws on a text that is not a certificate, every time (a failure is not kept)', (t) => {
  const certs = new SignerCertificates();
  t.throws(() => certs.certificate('QUJD'));
  t.throws(() => certs.certificate('QUJD'));
  t.throws(() => certs.cnpj('QUJD'));
  t.throws(() => certs.chain('QUJD'));
});

test('SignerCertificates judges a certificate\'s chain against the CAs of its bundle, as judgeChain does', (t) => {
  const caPem = material.chainPem[0]!;
  const certs = new SignerCertificates([`${caPem}\n${sefinSigningMaterial().certPem}`]);
  t.deepEqual(certs.trusted.map((c) => c.fingerprint256), [new X509Certificate(caPem).fingerprint256, new X509Certificate(sefinSigningMaterial().certPem).fingerprint256]);
  t.is(certs.chain(text), 'trusted');
  t.is(certs.chain(text), judgeChain(certs.certificate(text), certs.trusted));
  t.is(certs.chain(foreign), 295);
  t.is(new SignerCertificates().chain(text), 295, 'no trusted CA: foreign to the chain');
});
