import test from 'ava';
import { createHmac } from 'node:crypto';
import { signWebhookBody } from '../../../lib/webhooks/signature.js';
import { verifyWebhookSignature } from '../../../lib/webhooks/verify-signature.js';

const body = '{"id":"6f1c1f1e-8f0a-4f7e-9b1e-2d3c4b5a6978","type":"invoice.authorized","timestamp":"2026-11-22T20:00:00.000Z","data":{}}';

test('signWebhookBody is sha256= plus the hex HMAC-SHA256 of the raw body', (t) => {
  t.is(signWebhookBody('whsec_x', body), `sha256=${createHmac('sha256', 'whsec_x').update(body).digest('hex')}`);
});

test('verifyWebhookSignature accepts the signature made with the same secret', (t) => {
  t.true(verifyWebhookSignature('whsec_a', body, signWebhookBody('whsec_a', body)));
  t.true(verifyWebhookSignature('whsec_a', Buffer.from(body), signWebhookBody('whsec_a', body)));
});

test('verifyWebhookSignature refuses another secret, a changed body, a missing or malformed header', (t) => {
  const sig = signWebhookBody('whsec_a', body);
  t.false(verifyWebhookSignature('whsec_b', body, sig));
  t.false(verifyWebhookSignature('whsec_a', body + ' ', sig));
  t.false(verifyWebhookSignature('whsec_a', body, undefined));
  t.false(verifyWebhookSignature('whsec_a', body, sig.slice('sha256='.length)));
  t.false(verifyWebhookSignature('whsec_a', body, 'sha256=abc'));
});
