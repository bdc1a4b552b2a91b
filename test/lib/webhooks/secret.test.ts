import test from 'ava';
import { randomBytes } from 'node:crypto';
import { generateWebhookSecret, maskWebhookSecret } from '../../../lib/webhooks/secret.js';
import { openSecret, sealSecret } from '../../../lib/webhooks/secret-box.js';

test('generateWebhookSecret is whsec_ plus 32 bytes of base64url, different each time', (t) => {
  const a = generateWebhookSecret();
  t.regex(a, /^whsec_[A-Za-z0-9_-]{43}$/);
  t.is(Buffer.from(a.slice(6), 'base64url').length, 32);
  t.not(a, generateWebhookSecret());
});

test('maskWebhookSecret keeps the prefix, two first and two last characters', (t) => {
  t.is(maskWebhookSecret('whsec_abCDEFGHIJxy'), 'whsec_ab...xy');
});

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

test('sealSecret encrypts with the first key and openSecret finds it by id after rotation', (t) => {
  const sealed = sealSecret([k1], 'whsec_secret', 'p1');
  t.is(sealed.keyId, 'k1');
  t.false(sealed.sealed.includes('whsec_secret'));
  t.is(openSecret([k2, k1], sealed, 'p1'), 'whsec_secret');
  t.is(sealSecret([k2, k1], 'x').keyId, 'k2');
});

test('openSecret refuses another partner (AAD), a tampered value and an unknown key', (t) => {
  const sealed = sealSecret([k1], 'whsec_secret', 'p1');
  t.throws(() => openSecret([k1], sealed, 'p2'));
  const parts = sealed.sealed.split('.');
  parts[3] = Buffer.from('other').toString('base64url');
  t.throws(() => openSecret([k1], { ...sealed, sealed: parts.join('.') }, 'p1'));
  t.throws(() => openSecret([k2], sealed, 'p1'), { message: /k1/ });
});
