import test from 'ava';
import { checkResolvedAddresses, checkWebhookUrl, isNonPublicAddress } from '../../../lib/webhooks/url-policy.js';

test('checkWebhookUrl requires https when the configuration says so', (t) => {
  t.deepEqual(checkWebhookUrl('http://example.com/hook', { requireHttps: true }), { ok: false, message: 'webhookUrl deve usar https.' });
  t.true(checkWebhookUrl('https://example.com/hook', { requireHttps: true }).ok);
});

test('checkWebhookUrl accepts http in development (localhost receivers)', (t) => {
  t.true(checkWebhookUrl('http://localhost:3000/hook', { requireHttps: false }).ok);
});

test('checkWebhookUrl refuses other schemes, credentials, fragments and garbage', (t) => {
  for (const raw of ['ftp://example.com', 'file:///etc/passwd', 'https://u:p@example.com/', 'https://example.com/#x', 'not a url', 'javascript:alert(1)']) {
    t.false(checkWebhookUrl(raw, { requireHttps: false }).ok, raw);
  }
});

test('isNonPublicAddress flags private, loopback, link-local, metadata, CGNAT, ULA and mapped forms', (t) => {
  for (const a of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '224.0.0.1']) {
    t.true(isNonPublicAddress(a), a);
  }
});

test('isNonPublicAddress lets public addresses through', (t) => {
  for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) t.false(isNonPublicAddress(a), a);
});

test('checkResolvedAddresses refuses when any resolved address is not public', (t) => {
  const r = checkResolvedAddresses(['8.8.8.8', '10.0.0.5'], false);
  t.deepEqual(r, { ok: false, address: '10.0.0.5', message: 'webhookUrl resolve para endereço não público (10.0.0.5).' });
  t.deepEqual(checkResolvedAddresses(['8.8.8.8'], false), { ok: true });
});

test('checkResolvedAddresses allows private targets when configured (development)', (t) => {
  t.deepEqual(checkResolvedAddresses(['127.0.0.1'], true), { ok: true });
  t.false(checkResolvedAddresses([], true).ok);
});
