import { isUuid } from '../validation/uuid.js';

/**
 * Which refusals of an emission body's strict validation answer before its issuer is selected
 * (NF-e, NFC-e, NFS-e; the batch validates every note before any selection anyway).
 *
 * - Unknown keys (API.md, Emission rules 1, Errors > Unknown fields: "refuse 400 before any
 *   effect") are a property of the body alone: the answer is the same whichever issuer the body
 *   names, or none. A partner with several issuers learns of them with the missing issuerId, not
 *   only after adding it.
 * - An issuerId sent but malformed selects nothing: its 400 names the field (Precision rules 4)
 *   instead of the lookup's 404.
 *
 * Every other violation keeps its place after the selection's 400 (several issuers, NFS-e without
 * issuerId), 404 and 403, as the order of work documents it (services/emission/emit.ts).
 */
export function answersBeforeSelection(err: unknown, body: unknown): boolean {
  const refusal = err as { type?: unknown; data?: { details?: { camposDesconhecidos?: unknown[] } } } | null;
  if (refusal?.type !== 'VALIDATION_ERROR') return false;
  return !!refusal.data?.details?.camposDesconhecidos?.length || issuerIdMalformed(body);
}

/** Sent (null is "not sent", lib/nfe/without-nulls.ts) and not a UUID as the schemas' `uuid` rule checks it. */
function issuerIdMalformed(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const sent = (body as Record<string, unknown>).issuerId;
  return sent !== undefined && sent !== null && !isUuid(sent);
}

/**
 * Runs the strict validation now: a refusal that answers before the selection is thrown at once;
 * any other is kept, and the returned function throws it (or returns the valid body) once the
 * issuer is selected. The body is validated once either way.
 */
export async function validateBeforeSelection<T>(validate: () => T | Promise<T>, body: unknown): Promise<() => T> {
  let valid: T;
  try {
    valid = await validate();
  } catch (err) {
    if (answersBeforeSelection(err, body)) throw err;
    return () => { throw err; };
  }
  return () => valid;
}
