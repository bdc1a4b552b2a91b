import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A key of config.encryptionKeys. */
export interface BoxKey {
  readonly id: string;
  readonly key: Buffer;
}

/** Ciphertext at rest: which key sealed it and the sealed value (`v1.<iv>.<tag>.<ciphertext>`, base64url). */
export interface SealedSecret {
  keyId: string;
  sealed: string;
}

/**
 * AES-256-GCM with a fresh 96-bit IV per value. The first key seals; every key opens, looked up by
 * the stored key id, so keys can rotate (config.ts, encryptionKeys). `aad` binds the value to its
 * owner (e.g. the partner id) so a ciphertext copied to another row does not open.
 */
export function sealSecret(keys: readonly BoxKey[], plaintext: string, aad = ''): SealedSecret {
  const key = keys[0];
  if (!key) throw new Error('no encryption key configured');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return { keyId: key.id, sealed: ['v1', iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.') };
}

export function openSecret(keys: readonly BoxKey[], value: SealedSecret, aad = ''): string {
  const key = keys.find((k) => k.id === value.keyId);
  if (!key) throw new Error(`encryption key '${value.keyId}' is not configured`);
  const [version, iv, tag, ct] = value.sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unrecognised sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
