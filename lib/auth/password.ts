import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard, node:crypto). Stored form names its parameters so
 * they can be raised later without breaking old hashes: `scrypt$<N>$<r>$<p>$<salt>$<hash>`.
 * Default N = 2^15, r = 8 (32 MiB per hash): OWASP's scrypt floor is N=2^17 with r=8/p=1 or an
 * equivalent memory-time trade-off; N is configurable (AUTH_SCRYPT_N) and tests lower it.
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LEN = 32;

/** API.md, Limits: newPassword 8-72 characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes or node refuses the parameters.
    scrypt(password.normalize('NFC'), salt, KEY_LEN, { ...params, maxmem: 256 * params.N * params.r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Constant-time verification; a malformed stored hash is simply a mismatch. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const actual = await derive(password, salt, { N, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash to verify against when the e-mail is unknown, so an unknown account costs the same
 * scrypt work as a known one (no user enumeration by timing). One per parameter set.
 */
const dummies = new Map<number, Promise<string>>();
export function dummyHash(params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  let h = dummies.get(params.N);
  if (!h) {
    h = hashPassword(randomBytes(16).toString('hex'), params);
    dummies.set(params.N, h);
  }
  return h;
}
