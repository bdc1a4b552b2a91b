import type { LoggerInstance, ServiceBroker } from 'moleculer';

/** The cache keys of v1.auth.authenticate (its `cache` option: 2 s TTL, per auth node). */
export const AUTHENTICATION_CACHE = 'v1.auth.authenticate**';
/** How long a revocation waits for one node; a node that does not answer still forgets within the TTL. */
const DROP_TIMEOUT_MS = 1_000;

/**
 * Revocation propagation (issue 23, defect 6). Each auth node caches authentications for at most
 * 2 s. A fire-and-forget broadcast let a revoked key work for a while after the revocation had
 * answered (~180 ms seen). Now the revoking node drops its own cache and calls every other auth
 * node, and the revocation answers only after they dropped theirs: once it has answered, the
 * credential is refused on every node that answered. A node that cannot be reached within 1 s is
 * logged; its cache entries expire by themselves, so the bound is 2 s in the worst case.
 */
export async function dropAuthenticationCaches(broker: ServiceBroker, logger: LoggerInstance): Promise<void> {
  await broker.cacher?.clean(AUTHENTICATION_CACHE);
  const nodes = new Set<string>();
  for (const svc of broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as any[]) {
    if (svc.name === 'auth' && svc.version === 1 && svc.nodeID !== broker.nodeID) nodes.add(svc.nodeID);
  }
  await Promise.all([...nodes].map((nodeID) => broker.call('v1.auth.dropAuthenticationCache', {}, { nodeID, timeout: DROP_TIMEOUT_MS, retries: 0 })
    .catch((err: Error) => logger.warn({ nodeID, err: err.message }, 'authentication cache not dropped on a node; its entries expire within 2 s'))));
}
