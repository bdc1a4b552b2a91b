import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (certificates and their passwords): AES-256-GCM with a random 96-bit IV. The
 * first configured key encrypts; every key decrypts, so rotation is "prepend the new key, re-save
 * at leisure, drop the old one". The blob names its key:
 *   `v1.<keyId>.<iv b64url>.<tag b64url>.<ciphertext b64url>`
 * Optional associated data binds a blob to its row and purpose (a blob copied into another row
 * does not decrypt there).
 */
export interface SecretKey {
  readonly id: string;
  readonly key: Buffer;
}

const VERSION = 'v1';

export function encryptSecret(plaintext: Buffer | string, keys: readonly SecretKey[], aad?: string): string {
  const current = keys[0];
  if (!current) throw new Error('encryptSecret: no encryption key configured');
  if (current.key.length !== 32) throw new Error(`encryptSecret: key ${current.id} must be 32 bytes`);
  if (current.id.includes('.')) throw new Error(`encryptSecret: key id ${current.id} must not contain '.'`);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
  return [VERSION, current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** Throws on an unknown key id, a tampered blob or the wrong associated data. */
export function decryptSecret(blob: string, keys: readonly SecretKey[], aad?: string): Buffer {
  const parts = blob.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new Error('decryptSecret: not a v1 secret blob');
  const [, keyId, iv, tag, data] = parts as [string, string, string, string, string];
  const key = keys.find((k) => k.id === keyId);
  if (!key) throw new Error(`decryptSecret: key ${keyId} is not configured`);
  const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
}

/** Key id a blob was sealed with (to find rows still under an old key). */
export function secretKeyId(blob: string): string | null {
  const parts = blob.split('.');
  return parts.length === 5 && parts[0] === VERSION ? parts[1]! : null;
}
