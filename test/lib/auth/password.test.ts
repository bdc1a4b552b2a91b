import test from 'ava';
import { randomBytes, scryptSync } from 'node:crypto';
import { verify as referenceVerify } from '@node-rs/argon2';
import { DEFAULT_ARGON2, dummyHash, hashPassword, needsRehash, verifyPassword } from '../../../lib/auth/password.js';

const fast = { memoryKiB: 1024, timeCost: 1, parallelism: 1 };

/** A hash as the former scheme stored it: `scrypt$N$r$p$salt$hash` (base64), 32-byte key. */
function legacyScrypt(password: string, N = 1024): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return ['scrypt', N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

test('the default cost is OWASP\'s Argon2id minimum: 19456 KiB, 2 passes, 1 lane', async (t) => {
  t.deepEqual(DEFAULT_ARGON2, { memoryKiB: 19_456, timeCost: 2, parallelism: 1 });
  t.regex(await hashPassword('correct horse'), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
});

test('hashPassword stores Argon2id in the PHC string format with its parameters and a per-user salt', async (t) => {
  const a = await hashPassword('correct horse', fast);
  const b = await hashPassword('correct horse', fast);
  t.regex(a, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  t.not(a, b);
  t.false(a.includes('correct horse'));
  // Another Argon2 implementation reads it: the format is the standard one, not a private variant.
  t.true(await referenceVerify(a, 'correct horse'));
  t.false(await referenceVerify(a, 'correct horsf'));
});

test('verifyPassword accepts the password and refuses others', async (t) => {
  const h = await hashPassword('Senha-forte-1', fast);
  t.true(await verifyPassword('Senha-forte-1', h));
  t.false(await verifyPassword('Senha-forte-2', h));
  t.false(await verifyPassword('', h));
});

test('verifyPassword still accepts a hash of the former scrypt scheme, and only with its password', async (t) => {
  const h = legacyScrypt('Senha-antiga-1');
  t.true(await verifyPassword('Senha-antiga-1', h));
  t.false(await verifyPassword('Senha-antiga-2', h));
});

test('verifyPassword treats a malformed stored hash as a mismatch', async (t) => {
  t.false(await verifyPassword('x', 'not-a-hash'));
  t.false(await verifyPassword('x', 'scrypt$a$b$c$d$e'));
  t.false(await verifyPassword('x', '$argon2id$v=19$m=4,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo'), 'memory below 8 KiB per lane');
  t.false(await verifyPassword('x', '$argon2i$v=19$m=1024,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo'), 'not Argon2id');
  t.false(await verifyPassword('x', '$argon2id$v=16$m=1024,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo'), 'not version 19');
});

test('needsRehash: a scrypt hash, another Argon2id cost or a malformed hash is replaced; the current cost is kept', async (t) => {
  const current = await hashPassword('Senha-forte-1', fast);
  t.false(needsRehash(current, fast));
  t.true(needsRehash(current, { ...fast, memoryKiB: 2048 }));
  t.true(needsRehash(current, { ...fast, timeCost: 2 }));
  t.true(needsRehash(legacyScrypt('Senha-forte-1'), fast));
  t.true(needsRehash('not-a-hash', fast));
});

test('dummyHash is stable per parameter set and matches no password', async (t) => {
  t.is(await dummyHash(fast), await dummyHash(fast));
  t.regex(await dummyHash(fast), /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  t.false(await verifyPassword('anything', await dummyHash(fast)));
});
