import type { NodeMetrics } from '../shared/metrics.js';
import type { StageObserver } from './stage-timer.js';

/**
 * Feeds the node's Prometheus histograms from the stage timer: every stage by name, and the
 * numbering lock wait (stage `lock`) also under its own name, the figure an operator looks for
 * when one issuer's burst queues on its sequence row.
 */
export function stageObserver(metrics: NodeMetrics): StageObserver {
  return (stage, ms) => {
    metrics.emissionStage.observe({ stage }, ms / 1000);
    if (stage === 'lock') metrics.numberLockWait.observe(ms / 1000);
  };
}
