import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { certificateCnpj } from '../../../../lib/sefaz/simulator/certificate-cnpj.js';
import { createA1, createCa } from '../../../support/certificates.js';

const ca = createCa();

test('certificateCnpj reads the ICP-Brasil otherName 2.16.76.1.3.3 from DER', (t) => {
  const a1 = createA1(ca, { cnpj: '12345678000195', razaoSocial: 'OUTRA' });
  t.is(certificateCnpj(new X509Certificate(a1.certPem).raw), '12345678000195');
});

test('certificateCnpj falls back to the CN suffix', (t) => {
  const a1 = createA1(ca, { cnpj: '11222333000181', cnOnly: true });
  t.is(certificateCnpj(a1.certPem), '11222333000181');
});

test('certificateCnpj returns null for a certificate without CNPJ or garbage', (t) => {
  t.is(certificateCnpj(ca.certPem), null);
  t.is(certificateCnpj(new Uint8Array([1, 2, 3])), null);
});
