import type { ServiceBroker } from 'moleculer';
import { CATALOG, DomainError, isCatalogued, type ErrorCode } from '../../lib/errors/index.js';
import type { ErrorEnvelope } from '../../lib/http/error-envelope.js';

/**
 * An action that binds its Idempotency-Key to a document names where the gateway can find it:
 * `idempotencyLookup: { action, params, idField }`, called with `{ ...params, partnerId, key }` and
 * answering `{ [idField]: id, status }` or null. `idField` is how the document is named in details:
 * `invoiceId` (NF-e/NFC-e, the default) or `nfseId` (NFS-e).
 */
export interface IdempotencyLookup {
  action: string;
  params?: Record<string, unknown>;
  idField?: 'invoiceId' | 'nfseId';
}

const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * A 5xx the gateway answers itself for a document route (the node running it was lost, the call
 * timed out) still names the document when one was numbered under the request's key, as the
 * emission's own 5xx does (issue 20): the refusal again, with details.invoiceId (nfseId) and details.status.
 * Best effort: with no node to ask, the answer stays as it was.
 */
export async function namingBoundDocument(
  broker: Pick<ServiceBroker, 'call'>, lookup: IdempotencyLookup | undefined, who: { partnerId: string | null | undefined; key: unknown },
  status: number, body: ErrorEnvelope,
): Promise<DomainError | null> {
  const idField = lookup?.idField ?? 'invoiceId';
  if (!lookup || status < 500 || !who.partnerId || typeof who.key !== 'string' || body.error.details?.[idField]) return null;
  let found: Record<string, string> | null;
  try {
    found = await broker.call(lookup.action, { ...lookup.params, partnerId: who.partnerId, key: who.key }, { timeout: LOOKUP_TIMEOUT_MS, retries: 0 });
  } catch {
    return null;
  }
  if (!found) return null;
  const slug = body.error.type.slice(body.error.type.lastIndexOf('/') + 1);
  const code: ErrorCode = isCatalogued(slug) && CATALOG[slug].status === status ? slug : status === 504 ? 'GATEWAY_TIMEOUT' : status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR';
  return new DomainError(code, { ...(body.error.details ?? {}), [idField]: found[idField], status: found.status }, body.error.detail);
}
