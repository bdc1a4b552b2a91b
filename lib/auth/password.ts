import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { hashRaw, type Algorithm, type Version } from '@node-rs/argon2';

/**
 * Password hashing with Argon2id (RFC 9106), the first choice of the OWASP Password Storage Cheat
 * Sheet, at its minimum parameters: m = 19456 KiB (19 MiB), t = 2, p = 1. The stored form is the
 * PHC string `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>` (unpadded base64), so the
 * parameters can be raised later without breaking old hashes. Hashes of the former scheme,
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>`, are still verified; `needsRehash` tells the login to replace
 * them (services/auth/login.ts). Both compare the derived key in constant time.
 */
export interface Argon2Params {
  memoryKiB: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_ARGON2: Argon2Params = { memoryKiB: 19_456, timeCost: 2, parallelism: 1 };
const KEY_LEN = 32;
const SALT_LEN = 16;
/** @node-rs/argon2's const enums cannot be read under isolatedModules: Algorithm.Argon2id and Version.V0x13. */
const ARGON2ID = 2 as Algorithm;
const V0X13 = 1 as Version;

/** API.md, Limits: newPassword 8-72 characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

function argon2id(password: string, salt: Buffer, params: Argon2Params, outputLen: number): Promise<Buffer> {
  return hashRaw(password.normalize('NFC'), {
    algorithm: ARGON2ID, version: V0X13, memoryCost: params.memoryKiB, timeCost: params.timeCost, parallelism: params.parallelism, salt, outputLen,
  });
}

export async function hashPassword(password: string, params: Argon2Params = DEFAULT_ARGON2): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const hash = await argon2id(password, salt, params, KEY_LEN);
  return `$argon2id$v=19$m=${params.memoryKiB},t=${params.timeCost},p=${params.parallelism}$${b64(salt)}$${b64(hash)}`;
}

type Parsed =
  | { scheme: 'argon2id'; params: Argon2Params; salt: Buffer; hash: Buffer }
  | { scheme: 'scrypt'; params: { N: number; r: number; p: number }; salt: Buffer; hash: Buffer };

const ARGON2ID_FORM = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function parse(stored: string): Parsed | null {
  const a = ARGON2ID_FORM.exec(stored);
  if (a) {
    const [memoryKiB, timeCost, parallelism] = [a[1], a[2], a[3]].map(Number) as [number, number, number];
    const salt = Buffer.from(a[4]!, 'base64');
    const hash = Buffer.from(a[5]!, 'base64');
    // Argon2's own bounds (RFC 9106, 3.1): a stored string outside them is corrupt, not a password to try.
    if (parallelism < 1 || timeCost < 1 || memoryKiB < 8 * parallelism || salt.length < 8 || hash.length < 4) return null;
    return { scheme: 'argon2id', params: { memoryKiB, timeCost, parallelism }, salt, hash };
  }
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return null;
  return { scheme: 'scrypt', params: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64'), hash: Buffer.from(parts[5]!, 'base64') };
}

function scryptKey(password: string, salt: Buffer, params: { N: number; r: number; p: number }, keyLen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes or node refuses the parameters.
    scrypt(password.normalize('NFC'), salt, keyLen, { ...params, maxmem: 256 * params.N * params.r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Constant-time verification of either scheme; a malformed stored hash is simply a mismatch. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.hash.length === 0) return false;
  let actual: Buffer;
  try {
    actual = parsed.scheme === 'argon2id'
      ? await argon2id(password, parsed.salt, parsed.params, parsed.hash.length)
      : await scryptKey(password, parsed.salt, parsed.params, parsed.hash.length);
  } catch {
    return false;
  }
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** True when a stored hash is not Argon2id with these parameters: the login then stores a new one. */
export function needsRehash(stored: string, params: Argon2Params = DEFAULT_ARGON2): boolean {
  const parsed = parse(stored);
  if (!parsed || parsed.scheme !== 'argon2id') return true;
  const p = parsed.params;
  return p.memoryKiB !== params.memoryKiB || p.timeCost !== params.timeCost || p.parallelism !== params.parallelism;
}

/**
 * A hash to verify against when the e-mail is unknown, so an unknown account costs the same
 * Argon2id work as a known one (no user enumeration by timing). One per parameter set.
 */
const dummies = new Map<string, Promise<string>>();
export function dummyHash(params: Argon2Params = DEFAULT_ARGON2): Promise<string> {
  const key = `${params.memoryKiB},${params.timeCost},${params.parallelism}`;
  let h = dummies.get(key);
  if (!h) {
    h = hashPassword(randomBytes(16).toString('hex'), params);
    dummies.set(key, h);
  }
  return h;
}
