import test from 'ava';
import { certificateCnpj } from '../../../../lib/sefaz/simulator/certificate-cnpj.js';
import { SignerCertificates } from '../../../../services/sefaz/simulator/sefin/certificates.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';

const text = testSigningMaterial().certPem.replace(/-----[^-]+-----|\s/g, '');

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
});
