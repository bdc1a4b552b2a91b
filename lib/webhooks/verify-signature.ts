import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Receiver-side check of X-Webhook-Signature, as shown in lib/webhooks/README.md: recompute the
 * HMAC-SHA256 of the raw body (the bytes received, before any JSON parsing) and compare in
 * constant time. Self-contained on purpose so partners can copy it.
 */
export function verifyWebhookSignature(secret: string, rawBody: string | Buffer, header: string | undefined | null): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  const received = Buffer.from(header.slice('sha256='.length), 'utf8');
  return received.length === expected.length && timingSafeEqual(received, expected);
}
