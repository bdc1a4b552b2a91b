import { decrypt, encrypt, type AeadKey } from '../crypto/aead.js';

/** A key of config.encryptionKeys. */
export type BoxKey = AeadKey;

/** A webhook secret at rest: the key that sealed it (kept apart for rotation queries) and the blob. */
export interface SealedSecret {
  keyId: string;
  sealed: string;
}

/** Seals with lib/crypto/aead.ts (AES-256-GCM, first key); `aad` binds it to its partner. */
export function sealSecret(keys: readonly BoxKey[], plaintext: string, aad = ''): SealedSecret {
  const key = keys[0];
  if (!key) throw new Error('no encryption key configured');
  return { keyId: key.id, sealed: encrypt(plaintext, keys, aad) };
}

export function openSecret(keys: readonly BoxKey[], value: SealedSecret, aad = ''): string {
  return decrypt(value.sealed, keys, aad);
}
