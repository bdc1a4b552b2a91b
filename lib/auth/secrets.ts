import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque high-entropy tokens (refresh, reset, invite) and their storage form. These carry 256
 * bits of randomness, so a plain SHA-256 is a sufficient one-way hash (no KDF needed): the
 * database never holds a usable token.
 */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Equal-length constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
