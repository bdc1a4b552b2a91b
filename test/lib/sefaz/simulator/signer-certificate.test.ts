import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { judgeChain, judgeSigner } from '../../../../lib/sefaz/simulator/signer-certificate.js';
import { createA1, createCa } from '../../../support/certificates.js';

const ca = createCa();
const trusted = [new X509Certificate(ca.certPem)];
const now = new Date();
const cert = (pem: string) => new X509Certificate(pem);

test('judgeSigner accepts a valid certificate of the trusted chain and returns its CNPJ', (t) => {
  t.deepEqual(judgeSigner(cert(createA1(ca, { cnpj: '12345678000195' }).certPem), { trusted, now, cnpj: '12345678000195' }), { ok: true, cnpj: '12345678000195' });
});

test('judgeSigner: 295 foreign chain, 293 a trusted name with another key, 291 outside validity, 292 without CNPJ', (t) => {
  t.deepEqual(judgeSigner(cert(createA1(createCa('Outra AC'), { cnpj: '1' }).certPem), { trusted, now, cnpj: '1' }), { ok: false, cStat: 295 });
  t.deepEqual(judgeSigner(cert(createA1(createCa(), { cnpj: '1' }).certPem), { trusted, now, cnpj: '1' }), { ok: false, cStat: 293 });
  const expired = createA1(ca, { cnpj: '1', notBefore: new Date(now.getTime() - 4e10), notAfter: new Date(now.getTime() - 1e9) });
  t.deepEqual(judgeSigner(cert(expired.certPem), { trusted, now, cnpj: '1' }), { ok: false, cStat: 291 });
  const future = createA1(ca, { cnpj: '1', notBefore: new Date(now.getTime() + 1e9), notAfter: new Date(now.getTime() + 4e10) });
  t.deepEqual(judgeSigner(cert(future.certPem), { trusted, now, cnpj: '1' }), { ok: false, cStat: 291 });
  t.deepEqual(judgeSigner(cert(createA1(ca, { cnpj: '1' }).certPem), { trusted, now, cnpj: null }), { ok: false, cStat: 292 });
});

test('judgeChain: the chain verdict alone, which judgeSigner takes as given (validity and CNPJ still judged)', (t) => {
  const valid = cert(createA1(ca, { cnpj: '1' }).certPem);
  t.is(judgeChain(valid, trusted), 'trusted');
  t.is(judgeChain(cert(createA1(createCa('Outra AC'), { cnpj: '1' }).certPem), trusted), 295);
  t.is(judgeChain(cert(createA1(createCa(), { cnpj: '1' }).certPem), trusted), 293);
  t.deepEqual(judgeSigner(valid, { trusted: [], now, cnpj: '1', chain: 'trusted' }), { ok: true, cnpj: '1' });
  t.deepEqual(judgeSigner(valid, { trusted, now, cnpj: '1', chain: 293 }), { ok: false, cStat: 293 });
  t.deepEqual(judgeSigner(valid, { trusted, now, cnpj: null, chain: 'trusted' }), { ok: false, cStat: 292 });
});
