import test from 'ava';
import { hashPassword, verifyPassword, dummyHash } from '../../../lib/auth/password.js';

const fast = { N: 1024, r: 8, p: 1 };

test('hashPassword stores scrypt parameters and a per-user salt', async (t) => {
  const a = await hashPassword('correct horse', fast);
  const b = await hashPassword('correct horse', fast);
  t.regex(a, /^scrypt\$1024\$8\$1\$/);
  t.not(a, b);
  t.false(a.includes('correct horse'));
});

test('verifyPassword accepts the password and refuses others', async (t) => {
  const h = await hashPassword('Senha-forte-1', fast);
  t.true(await verifyPassword('Senha-forte-1', h));
  t.false(await verifyPassword('Senha-forte-2', h));
  t.false(await verifyPassword('', h));
});

test('verifyPassword treats a malformed stored hash as a mismatch', async (t) => {
  t.false(await verifyPassword('x', 'not-a-hash'));
  t.false(await verifyPassword('x', 'scrypt$a$b$c$d$e'));
});

test('the default cost is N=2^15 and dummyHash is stable per parameter set', async (t) => {
  const { DEFAULT_SCRYPT } = await import('../../../lib/auth/password.js');
  t.is(DEFAULT_SCRYPT.N, 32768);
  t.is(await dummyHash(fast), await dummyHash(fast));
  t.false(await verifyPassword('anything', await dummyHash(fast)));
});
