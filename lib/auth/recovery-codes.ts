import { randomInt } from 'node:crypto';
import { sha256Hex } from './secrets.js';

/**
 * Recovery codes (API.md, Two-factor 4): ten single-use codes shown once at enablement,
 * `XXXXX-XXXXX` from an alphabet without look-alikes (50 bits each). Stored as SHA-256 of the
 * normalized code; the holder may type them in any case, with or without the hyphen.
 */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const RECOVERY_CODE_COUNT = 10;

export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return sha256Hex(normalizeRecoveryCode(code));
}
