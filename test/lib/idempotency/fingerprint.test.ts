import test from 'ava';
import { createHash } from 'node:crypto';
import { bodyFingerprint, canonicalJson, requestFingerprint } from '../../../lib/idempotency/fingerprint.js';

test('canonicalJson sorts keys at every depth and keeps array order', (t) => {
  t.is(canonicalJson({ b: 1, a: [{ d: 2, c: null }, 3] }), '{"a":[{"c":null,"d":2},3],"b":1}');
});

test('bodyFingerprint is the same for the same body in another key order, and differs for another body', (t) => {
  t.is(bodyFingerprint({ a: 1, b: { c: 2, d: 3 } }), bodyFingerprint({ b: { d: 3, c: 2 }, a: 1 }));
  t.not(bodyFingerprint({ a: 1 }), bodyFingerprint({ a: 2 }));
  t.regex(bodyFingerprint({}), /^[0-9a-f]{64}$/);
});

test('requestFingerprint binds method and route as the gateway records always did (stored records stay valid)', (t) => {
  const expected = createHash('sha256').update('POST /v1/nfe\n{"a":1,"b":2}').digest('hex');
  t.is(requestFingerprint('POST', '/v1/nfe', { b: 2, a: 1 }), expected);
  t.not(requestFingerprint('POST', '/v1/nfce', { a: 1, b: 2 }), expected);
});
