import test from 'ava';
import { randomBytes, scryptSync } from 'node:crypto';
import { createPartnerWithKey, TEST_PASSWORD } from '../../support/identity.js';
import { authStack, assertInvalidCredentials } from './helpers.js';
import type { Stack } from '../../support/stack.js';

/**
 * Issue 21, item 13: users whose hash is of the former scheme (scrypt, as stored before Argon2id)
 * still log in, and their hash becomes Argon2id at the configured cost on that login; a wrong
 * password changes nothing (testEnv's cost: 1024 KiB, one pass).
 */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

async function userWithScryptHash(stack: Stack, email: string): Promise<string> {
  const { partnerId } = await createPartnerWithKey(stack);
  await stack.nodes[0]!.call('v1.auth.createUser', { partnerId, email, password: 'provisoria-123', name: 'Legado', role: 'ADMIN' });
  const hash = legacyScrypt(TEST_PASSWORD);
  await stack.knex('auth.users').where({ email }).update({ password_hash: hash });
  return hash;
}

const hashOf = async (stack: Stack, email: string) => (await stack.knex('auth.users').where({ email }).first('password_hash')).password_hash as string;
const login = (stack: Stack, email: string, password: string) => stack.request('POST', '/v1/auth/login', { body: { email, password } });

test.serial('a scrypt hash is accepted and replaced by Argon2id on the next successful login; the new hash logs in', async (t) => {
  const stack = await authStack(t);
  const email = `legado-${randomBytes(4).toString('hex')}@example.com`;
  await userWithScryptHash(stack, email);
  const first = await login(stack, email, TEST_PASSWORD);
  t.is(first.status, 201, first.text);
  t.truthy(first.body.data.access_token);
  t.regex(await hashOf(stack, email), /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  const second = await login(stack, email, TEST_PASSWORD);
  t.is(second.status, 201, second.text);
  t.truthy(second.body.data.access_token);
});

test.serial('a wrong password against a scrypt hash is the usual 401 and leaves the hash as it was', async (t) => {
  const stack = await authStack(t);
  const email = `legado-${randomBytes(4).toString('hex')}@example.com`;
  const hash = await userWithScryptHash(stack, email);
  assertInvalidCredentials(t, await login(stack, email, 'Senha-errada-123'));
  t.is(await hashOf(stack, email), hash);
});
