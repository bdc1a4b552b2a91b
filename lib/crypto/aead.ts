import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A named 256-bit key (config.encryptionKeys). */
export interface AeadKey {
  readonly id: string;
  readonly key: Buffer;
}

/**
 * Authenticated encryption at rest (AES-256-GCM) with key rotation: the first key encrypts, any
 * listed key decrypts. The blob names its key so decryption needs no guessing:
 * `v1.<keyId>.<iv b64url>.<tag b64url>.<ciphertext b64url>`. Optional `aad` binds the ciphertext
 * to its context (for example a user id), so a blob copied to another row does not decrypt.
 */
const VERSION = 'v1';

export function encrypt(plaintext: string | Buffer, keys: readonly AeadKey[], aad?: string): string {
  const current = keys[0];
  if (!current) throw new Error('encrypt: no encryption key configured');
  if (current.key.length !== 32) throw new Error(`encrypt: key ${current.id} is not 32 bytes`);
  if (current.id.includes('.')) throw new Error('encrypt: key id must not contain "."');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
  return [VERSION, current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** Decrypts to bytes; throws on an unknown key, a malformed blob or a failed authentication tag. */
export function decryptBytes(blob: string, keys: readonly AeadKey[], aad?: string): Buffer {
  const parts = blob.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new Error('decrypt: malformed blob');
  const [, keyId, ivB64, tagB64, bodyB64] = parts as [string, string, string, string, string];
  const key = keys.find((k) => k.id === keyId);
  if (!key) throw new Error(`decrypt: unknown key id ${keyId}`);
  const iv = Buffer.from(ivB64, 'base64url');
  const tag = Buffer.from(tagB64, 'base64url');
  if (iv.length !== 12 || tag.length !== 16) throw new Error('decrypt: malformed blob');
  const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(Buffer.from(bodyB64, 'base64url')), decipher.final()]);
}

export function decrypt(blob: string, keys: readonly AeadKey[], aad?: string): string {
  return decryptBytes(blob, keys, aad).toString('utf8');
}

/** Key id a blob was sealed with (to find rows still under an old key during rotation). */
export function keyIdOf(blob: string): string | null {
  const parts = blob.split('.');
  return parts.length === 5 && parts[0] === VERSION ? parts[1]! : null;
}
