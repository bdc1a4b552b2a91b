import type { GatewayCtx, GatewaySelf } from './service-this.js';
import { API_VERSION } from '../../lib/version.js';
import { dependencyChecks, readiness } from './health.js';
import { scrapeCluster } from './metrics-scrape.js';

/**
 * The gateway's probes and scrape (routes outside /v1, README "Operations"). They count against
 * the per-IP window of the public routes like /version (API.md, Limits: /health and /health/live
 * are named there, and X-RateLimit-* is on every response); an orchestrator or Prometheus polling
 * every few seconds stays far below IP_RATE_LIMIT. `probe`: answered even while Redis cannot count
 * that window (a node-local window then), so liveness never fails because Redis did.
 * `metricsToken`: METRICS_TOKEN applies (api-gateway's authenticate).
 */
export const monitoringActions = {
  live: {
    auth: 'none',
    probe: true,
    handler() {
      return { status: 'ok' };
    },
  },
  health: {
    auth: 'none',
    probe: true,
    async handler(this: GatewaySelf, ctx: GatewayCtx) {
      const checks = await dependencyChecks(this.broker, this.knex);
      ctx.meta.$statusCode = 200;
      return { status: 'ok', version: API_VERSION, checks };
    },
  },
  ready: {
    auth: 'none',
    probe: true,
    handler(this: GatewaySelf) {
      return readiness(this.broker, this.knex);
    },
  },
  metrics: {
    auth: 'none',
    probe: true,
    metricsToken: true,
    // The Prometheus text exposition, not an envelope.
    raw: true,
    async handler(this: GatewaySelf, ctx: GatewayCtx) {
      const { text, contentType } = await scrapeCluster(ctx);
      ctx.meta.$responseType = contentType;
      return text;
    },
  },
};
