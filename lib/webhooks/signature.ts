import { createHmac } from 'node:crypto';

/** Header value of X-Webhook-Signature: `sha256=` + hex HMAC-SHA256 of the raw body (API.md, Events > Delivery). */
export function signWebhookBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
