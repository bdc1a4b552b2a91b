import test from 'ava';
import forge from 'node-forge';
import { acceptCertificate, readPkcs12 } from '../../../lib/issuer/certificate.js';
import { withCnpjCheckDigits } from '../../../lib/issuer/documents.js';
import { createA1, createCa, fabricatedRsaKey } from '../../support/certificates.js';

const ca = createCa();
const CNPJ = '11222333000181';
const DAY = 86_400_000;
const now = new Date();
const pfx = (a1: { pfxBase64: string }) => Buffer.from(a1.pfxBase64, 'base64');

function refusal(fn: () => unknown) {
  try { fn(); } catch (err: any) { return { type: err.type, code: err.code, message: err.message, data: err.data }; }
  throw new Error('did not throw');
}

test('readPkcs12 returns the key, the leaf, the chain, the OID CNPJ and a fingerprint', (t) => {
  const a1 = createA1(ca, { cnpj: CNPJ, razaoSocial: 'ACME' });
  const c = readPkcs12(pfx(a1), a1.password);
  t.is(c.cnpj, CNPJ);
  t.is(c.subject, `CN=ACME:${CNPJ}, C=BR, O=ICP-Brasil`);
  t.regex(c.fingerprint, /^[0-9a-f]{64}$/);
  t.is(c.chainPem.length, 1);
  t.regex(c.keyPem, /BEGIN RSA PRIVATE KEY/);
  // Same certificate (forge re-encodes the test CA's zero-padded serial, so bytes may differ).
  const [mine, theirs] = [forge.pki.certificateFromPem(c.certPem), forge.pki.certificateFromPem(a1.certPem)];
  t.true((mine.publicKey as forge.pki.rsa.PublicKey).n.equals((theirs.publicKey as forge.pki.rsa.PublicKey).n));
  t.is(mine.serialNumber.replace(/^(00)+/, ''), theirs.serialNumber.replace(/^(00)+/, ''));
  t.is(c.serial, theirs.serialNumber.replace(/^(00)+(?=[0-7])/, '').toUpperCase());
  t.true((forge.pki.certificateFromPem(c.chainPem[0]!).publicKey as forge.pki.rsa.PublicKey).n.equals((ca.cert.publicKey as forge.pki.rsa.PublicKey).n));
});

test('readPkcs12 takes the CNPJ from the CN suffix when the OID is absent', (t) => {
  const a1 = createA1(ca, { cnpj: CNPJ, cnOnly: true });
  t.is(readPkcs12(pfx(a1), a1.password).cnpj, CNPJ);
});

test('readPkcs12 tells a wrong password from a file that is not PKCS#12', (t) => {
  const a1 = createA1(ca, { cnpj: CNPJ });
  t.like(refusal(() => readPkcs12(pfx(a1), 'errada')), { type: 'CERTIFICADO_SENHA_INVALIDA', code: 422 });
  t.like(refusal(() => readPkcs12(Buffer.from('lixo'), 'x')), { type: 'CERTIFICADO_INVALIDO', code: 422 });
  t.like(refusal(() => readPkcs12(Buffer.alloc(0), 'x')), { type: 'CERTIFICADO_INVALIDO', code: 422 });
  t.like(refusal(() => readPkcs12(pfx(a1).subarray(0, 200), a1.password)), { type: 'CERTIFICADO_INVALIDO', code: 422 });
});

test('acceptCertificate refuses expired, not yet valid and another CNPJ (full 14 characters, not the root)', (t) => {
  const expired = createA1(ca, { cnpj: CNPJ, notBefore: new Date(now.getTime() - 10 * DAY), notAfter: new Date(now.getTime() - DAY) });
  t.like(refusal(() => acceptCertificate(pfx(expired), expired.password, CNPJ, now)), { type: 'CERTIFICADO_EXPIRADO', code: 422 });
  const future = createA1(ca, { cnpj: CNPJ, notBefore: new Date(now.getTime() + DAY), notAfter: new Date(now.getTime() + 10 * DAY) });
  t.like(refusal(() => acceptCertificate(pfx(future), future.password, CNPJ, now)), { type: 'CERTIFICADO_AINDA_NAO_VALIDO', code: 422 });
  const branch = withCnpjCheckDigits('112223330002');
  const other = createA1(ca, { cnpj: branch });
  t.deepEqual(refusal(() => acceptCertificate(pfx(other), other.password, CNPJ, now)), {
    type: 'CERTIFICADO_CNPJ_DIVERGENTE', code: 422, message: 'CNPJ do certificado difere do CNPJ do emissor.', data: { cnpjCertificado: branch, cnpjEmissor: CNPJ },
  });
  const ok = createA1(ca, { cnpj: CNPJ });
  t.is(acceptCertificate(pfx(ok), ok.password, CNPJ, now).cnpj, CNPJ);
});

test('acceptCertificate refuses an RSA key above 4096 bits (a signature would cost ~0.3 s, not 1 ms) and accepts 4096', (t) => {
  const huge = createA1(ca, { cnpj: CNPJ, key: fabricatedRsaKey(16384) });
  t.deepEqual(refusal(() => acceptCertificate(pfx(huge), huge.password, CNPJ, now)), {
    type: 'CERTIFICADO_INVALIDO', code: 422, message: 'Chave RSA de 16384 bits: o A1 ICP-Brasil usa chave de 2048 ou 4096 bits.', data: { bitsChave: 16384, bitsMaximos: 4096 },
  });
  const usual = createA1(ca, { cnpj: CNPJ, key: fabricatedRsaKey(4096) });
  t.is(acceptCertificate(pfx(usual), usual.password, CNPJ, now).keyBits, 4096);
});

test('acceptCertificate refuses a subject holding U+0000, which the stored summary (jsonb) cannot hold', (t) => {
  const a1 = createA1(ca, { cnpj: CNPJ, razaoSocial: 'EMPRESA\u0000NULA' });
  t.deepEqual(refusal(() => acceptCertificate(pfx(a1), a1.password, CNPJ, now)), {
    type: 'CERTIFICADO_INVALIDO', code: 422, message: 'Titular do certificado com caractere não permitido (U+0000 ou surrogate UTF-16 isolado).', data: undefined,
  });
});
