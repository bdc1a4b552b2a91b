import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new webhook secret: `whsec_` + 32 random bytes in base64url (256 bits). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Masked form shown after the single reveal: `whsec_ab...xy` (API.md, Endpoints > Webhooks). */
export function maskWebhookSecret(secret: string): string {
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (body.length < 8) return `${SECRET_PREFIX}...`;
  return `${SECRET_PREFIX}${body.slice(0, 2)}...${body.slice(-2)}`;
}
