import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPkcs12Iterations, MAX_PKCS12_ITERATIONS, pkcs12Iterations } from '../../../lib/issuer/pkcs12-iterations.js';
import { readPkcs12 } from '../../../lib/issuer/certificate.js';
import { createA1, createCa } from '../../support/certificates.js';
import { withKeyBagIterations, withMacIterations } from '../../support/pkcs12-patch.js';

const a1 = createA1(createCa(), { cnpj: '11222333000181' });
const pfx = Buffer.from(a1.pfxBase64, 'base64');

test('pkcs12Iterations reads the MAC and the shrouded key bag counts of a forge file', (t) => {
  t.deepEqual(pkcs12Iterations(pfx), [2048, 2048]);
  t.deepEqual(pkcs12Iterations(withMacIterations(pfx, 8_388_607)), [8_388_607, 2048]);
  t.deepEqual(pkcs12Iterations(withKeyBagIterations(pfx, 0x7fffffff)), [2048, 0x7fffffff]);
  t.deepEqual(pkcs12Iterations(withMacIterations(pfx, 2 ** 40)), [Infinity, 2048], 'a count past 2^31 is unbounded');
});

test('pkcs12Iterations reads PBES2/PBKDF2 counts of OpenSSL files, the encrypted certificate bag included', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'p12-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-subj', '/CN=t', '-days', '1'], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', join(dir, 'k.pem'), '-in', join(dir, 'c.pem'), '-out', join(dir, 'a.p12'), '-passout', 'pass:x', '-iter', '150000', '-maciter'], { stdio: 'ignore' });
  t.deepEqual(pkcs12Iterations(readFileSync(join(dir, 'a.p12'))), [150_000, 150_000, 150_000]);
});

test('pkcs12Iterations finds nothing in bytes that are not PKCS#12', (t) => {
  t.deepEqual(pkcs12Iterations(Buffer.from('não é um pfx')), []);
  t.deepEqual(pkcs12Iterations(Buffer.alloc(0)), []);
});

test('checkPkcs12Iterations and readPkcs12 refuse a count over the bound before any derivation', (t) => {
  t.notThrows(() => checkPkcs12Iterations(withMacIterations(pfx, MAX_PKCS12_ITERATIONS)));
  const started = performance.now();
  const err = t.throws(() => readPkcs12(withMacIterations(pfx, 0x7fffffff), 'senha-errada')) as any;
  t.true(performance.now() - started < 100);
  t.like(err, { type: 'CERTIFICADO_INVALIDO', code: 422, data: { iteracoesMaximas: MAX_PKCS12_ITERATIONS } });
});
