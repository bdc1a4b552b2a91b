import { createHash } from 'node:crypto';

/**
 * The fingerprint an Idempotency-Key is checked against: a different body under the same key is
 * refused (IDEMPOTENCIA_CORPO_DIVERGENTE) by the gateway and, for the documents a key is bound
 * to, by the emission service. Both hash the same canonical form, so key order never matters.
 */

/** JSON with sorted keys, so the same body in another key order has the same fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 (hex) of the canonical body: what a document bound to a key remembers of its request. */
export function bodyFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The gateway's record is per route: the method and route are part of what was asked. */
export function requestFingerprint(method: string, route: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${route}\n${canonicalJson(body)}`).digest('hex');
}
