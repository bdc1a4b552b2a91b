import { randomBytes } from 'node:crypto';
import { digestsEqual, sha256Hex } from './secrets.js';

/**
 * API keys (API.md, Authentication > API key): `ek_live_` or `ek_test_`, then a public id used to
 * find the row, then a 256-bit secret: `ek_live_<16 hex>_<43 base64url>`. Only the SHA-256 of the
 * secret is stored; the full key is shown once.
 */
export type KeyKind = 'live' | 'test';

export interface NewApiKey {
  kind: KeyKind;
  keyId: string;
  /** Full key, to show once. */
  key: string;
  secretHash: string;
}

export interface ParsedApiKey {
  kind: KeyKind;
  keyId: string;
  secret: string;
}

const PATTERN = /^ek_(live|test)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export function generateApiKey(kind: KeyKind): NewApiKey {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { kind, keyId, key: `ek_${kind}_${keyId}_${secret}`, secretHash: sha256Hex(secret) };
}

/** Null for anything that is not a well-formed key (the caller answers 401). */
export function parseApiKey(raw: string): ParsedApiKey | null {
  const m = PATTERN.exec(raw.trim());
  if (!m) return null;
  return { kind: m[1] as KeyKind, keyId: m[2]!, secret: m[3]! };
}

export function apiKeyMatches(parsed: ParsedApiKey, storedHash: string): boolean {
  return digestsEqual(sha256Hex(parsed.secret), storedHash);
}

/** What may be shown after creation: prefix and id, never the secret. */
export function maskApiKey(kind: KeyKind, keyId: string): string {
  return `ek_${kind}_${keyId}_••••`;
}
