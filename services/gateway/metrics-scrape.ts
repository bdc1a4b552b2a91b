import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'moleculer';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { METRICS_SERVICE } from '../metrics.service.js';
import { DomainError } from '../../lib/errors/index.js';

/** How long one node may take to answer its metrics before the scrape goes on without it. */
const NODE_TIMEOUT_MS = 5_000;

/**
 * `GET /metrics` on any gateway: every node's own registry (services/shared/metrics.ts), asked over
 * the broker with a call pinned to each node (`nodeID`), merged into one exposition. Series carry a
 * `node` label, so nodes never add into each other; a node that does not answer in time is left out
 * and reported in `fiscal_metrics_node_scrape_ok` (0), never an error of the whole scrape. The same
 * code serves the embedded mode (one node, a local call) and a cluster.
 */
export async function scrapeCluster(ctx: Context): Promise<{ text: string; contentType: string }> {
  const nodes = new Set<string>();
  for (const svc of ctx.broker.registry.getServiceList({ onlyAvailable: true }) as any[]) {
    if (svc.name === METRICS_SERVICE && svc.nodeID) nodes.add(svc.nodeID);
  }
  const ids = [...nodes].sort();
  const answers = await Promise.allSettled(ids.map((nodeID) => ctx.call<MetricObjectWithValues<MetricValue<string>>[], Record<string, never>>(`${METRICS_SERVICE}.scrape`, {}, { nodeID, timeout: NODE_TIMEOUT_MS, retries: 0 })));
  const ok = answers.map((a) => (a.status === 'fulfilled' ? a.value : null));
  const health = {
    name: 'fiscal_metrics_node_scrape_ok', help: 'Whether this node answered the scrape (1) or was left out (0).', type: 'gauge', aggregator: 'sum',
    values: ids.map((node, i) => ({ labels: { node }, value: ok[i] ? 1 : 0 })),
  };
  const registry = AggregatorRegistry.aggregate([...ok.filter((m): m is NonNullable<typeof m> => !!m), [health as any]]);
  return { text: await registry.metrics(), contentType: registry.contentType };
}

/**
 * METRICS_TOKEN, when set, is required as `Authorization: Bearer <token>` on /metrics; unset, the
 * route is open (scrapers inside the cluster's network). Compared in constant time.
 */
export function checkMetricsToken(expected: string | null, authorization: unknown): void {
  if (!expected) return;
  const given = typeof authorization === 'string' && authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new DomainError('UNAUTHORIZED', undefined, 'Métricas exigem Authorization: Bearer com o METRICS_TOKEN.');
  }
}
