import test from 'ava';
import { generateApiKey, parseApiKey, apiKeyMatches, maskApiKey } from '../../../lib/auth/api-key.js';

test('generateApiKey gives ek_live_/ek_test_ keys that parse back', (t) => {
  for (const kind of ['live', 'test'] as const) {
    const k = generateApiKey(kind);
    t.true(k.key.startsWith(`ek_${kind}_`));
    const parsed = parseApiKey(k.key)!;
    t.is(parsed.kind, kind);
    t.is(parsed.keyId, k.keyId);
    t.true(apiKeyMatches(parsed, k.secretHash));
    t.false(k.secretHash.includes(parsed.secret));
  }
});

test('apiKeyMatches refuses another secret with the same id', (t) => {
  const k = generateApiKey('live');
  const other = generateApiKey('live');
  const forged = parseApiKey(`ek_live_${k.keyId}_${other.key.slice(-43)}`)!;
  t.false(apiKeyMatches(forged, k.secretHash));
});

test('parseApiKey refuses malformed keys', (t) => {
  for (const bad of ['', 'ek_live_', 'ek_prod_0123456789abcdef_' + 'a'.repeat(43), 'sk_live_x', 'ek_live_0123456789abcdef_short']) {
    t.is(parseApiKey(bad), null, bad);
  }
});

test('maskApiKey never contains the secret', (t) => {
  const k = generateApiKey('test');
  const masked = maskApiKey('test', k.keyId);
  t.is(masked, `ek_test_${k.keyId}_••••`);
  t.false(masked.includes(k.key.slice(-43)));
});
