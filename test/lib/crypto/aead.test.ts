import test from 'ava';
import { randomBytes } from 'node:crypto';
import { encrypt, decrypt } from '../../../lib/crypto/aead.js';
import { keyIdOf } from '../../../lib/crypto/aead.js';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

test('encrypt/decrypt round-trips and never shows the plaintext', (t) => {
  const blob = encrypt('JBSWY3DPEHPK3PXP', [k1]);
  t.false(blob.includes('JBSWY3DPEHPK3PXP'));
  t.regex(blob, /^v1\.k1\./);
  t.is(decrypt(blob, [k1]), 'JBSWY3DPEHPK3PXP');
});

test('encrypt uses a fresh IV each time', (t) => {
  t.not(encrypt('same', [k1]), encrypt('same', [k1]));
});

test('rotation: the first key encrypts, any listed key decrypts', (t) => {
  const old = encrypt('segredo', [k1]);
  const fresh = encrypt('segredo', [k2, k1]);
  t.regex(fresh, /^v1\.k2\./);
  t.is(decrypt(old, [k2, k1]), 'segredo');
  t.is(decrypt(fresh, [k2, k1]), 'segredo');
  t.throws(() => decrypt(fresh, [k1]), { message: /unknown key id k2/ });
});

test('decrypt refuses a tampered blob, a wrong key and a wrong aad', (t) => {
  const blob = encrypt('segredo', [k1], 'user-1');
  const parts = blob.split('.');
  const body = Buffer.from(parts[4]!, 'base64url');
  body[0] = body[0]! ^ 1;
  parts[4] = body.toString('base64url');
  t.throws(() => decrypt(parts.join('.'), [k1], 'user-1'));
  t.throws(() => decrypt(blob, [{ id: 'k1', key: randomBytes(32) }], 'user-1'));
  t.throws(() => decrypt(blob, [k1], 'user-2'));
  t.is(decrypt(blob, [k1], 'user-1'), 'segredo');
  t.throws(() => decrypt('garbage', [k1]), { message: /malformed/ });
});

test('encrypt refuses to run without a key', (t) => {
  t.throws(() => encrypt('x', []), { message: /no encryption key/ });
});

test('keyIdOf names the key a blob was sealed with, for rotation', (t) => {
  const keys = [{ id: 'k2', key: Buffer.alloc(32, 2) }, { id: 'k1', key: Buffer.alloc(32, 1) }];
  t.is(keyIdOf(encrypt('x', keys)), 'k2');
  t.is(keyIdOf('not-a-blob'), null);
});
