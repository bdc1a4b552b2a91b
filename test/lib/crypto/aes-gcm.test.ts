import test from 'ava';
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, secretKeyId } from '../../../lib/crypto/aes-gcm.js';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

test('encryptSecret/decryptSecret round-trip bytes and strings; the blob names its key and hides the text', (t) => {
  const blob = encryptSecret('senha secreta', [k1]);
  t.regex(blob, /^v1\.k1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  t.false(blob.includes('senha'));
  t.is(decryptSecret(blob, [k1]).toString(), 'senha secreta');
  const bytes = randomBytes(3000);
  t.deepEqual(decryptSecret(encryptSecret(bytes, [k1]), [k1]), bytes);
  t.is(secretKeyId(blob), 'k1');
});

test('two encryptions of the same secret differ (random IV)', (t) => {
  t.not(encryptSecret('x', [k1]), encryptSecret('x', [k1]));
});

test('rotation: the first key encrypts, every configured key decrypts, a removed key fails loudly', (t) => {
  const old = encryptSecret('antigo', [k1]);
  const rotated = [k2, k1];
  t.is(decryptSecret(old, rotated).toString(), 'antigo');
  t.is(secretKeyId(encryptSecret('novo', rotated)), 'k2');
  t.throws(() => decryptSecret(old, [k2]), { message: /key k1 is not configured/ });
});

test('tampering, a wrong key under the same id and wrong associated data are refused', (t) => {
  const blob = encryptSecret('dado', [k1], 'issuer:a:pfx');
  t.is(decryptSecret(blob, [k1], 'issuer:a:pfx').toString(), 'dado');
  t.throws(() => decryptSecret(blob, [k1], 'issuer:b:pfx'));
  t.throws(() => decryptSecret(blob, [k1]));
  const parts = blob.split('.');
  parts[4] = Buffer.from('outro').toString('base64url');
  t.throws(() => decryptSecret(parts.join('.'), [k1], 'issuer:a:pfx'));
  t.throws(() => decryptSecret(blob, [{ id: 'k1', key: randomBytes(32) }], 'issuer:a:pfx'));
  t.throws(() => decryptSecret('not-a-blob', [k1]), { message: /not a v1 secret blob/ });
});

test('encryptSecret refuses to run without a key or with a short key', (t) => {
  t.throws(() => encryptSecret('x', []), { message: /no encryption key/ });
  t.throws(() => encryptSecret('x', [{ id: 'k', key: randomBytes(16) }]), { message: /32 bytes/ });
});
