import type { CircuitState } from '../../lib/sefaz/breaker.js';
import type { NodeMetrics } from '../shared/metrics.js';
import type { AuthorityTransport } from './transport.js';

const CIRCUIT_VALUE: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };

/**
 * Connects the node's authority transport to its metrics: each exchange on the wire counts under
 * its UF, model, outcome and root cStat (the answer's own status, e.g. 104 for a processed batch)
 * with its round trip; each circuit's state is read at scrape time. Returns the removal of the
 * circuit reading, for when the service stops.
 */
export function instrumentTransport(transport: AuthorityTransport, metrics: NodeMetrics, now: () => number): () => void {
  transport.onExchange((key, ms, evidence) => {
    // Breaker keys are `UF|model|ambiente` (services/sefaz/target.ts authorityKey).
    const [uf = '', model = ''] = key.split('|');
    const cstat = evidence?.kind === 'answer' && evidence.cStat !== undefined ? String(evidence.cStat) : '';
    metrics.authorityCalls.inc({ uf, model, outcome: evidence?.kind ?? 'error', cstat });
    metrics.authorityRoundTrip.observe({ uf, model }, ms / 1000);
  });
  return metrics.addSource(metrics.circuitState, (set) => {
    for (const key of transport.breaker.keys()) set({ authority: key }, CIRCUIT_VALUE[transport.breaker.state(key, now())]);
  });
}
