import type { GatewayCtx, GatewaySelf } from './service-this.js';
import { API_VERSION } from '../../lib/version.js';
import { dependencyChecks, readiness } from './health.js';
import { scrapeCluster } from './metrics-scrape.js';

/**
 * The gateway's probes and scrape (routes outside /v1, README "Operations"). `rateLimit: false`:
 * orchestrators and Prometheus call them every few seconds from the same addresses, so they are
 * never counted against the per-IP limit. `metricsToken`: METRICS_TOKEN applies (api-gateway's authenticate).
 */
export const monitoringActions = {
  live: {
    auth: 'none',
    rateLimit: false,
    handler() {
      return { status: 'ok' };
    },
  },
  health: {
    auth: 'none',
    rateLimit: false,
    async handler(this: GatewaySelf, ctx: GatewayCtx) {
      const checks = await dependencyChecks(this.broker, this.knex);
      ctx.meta.$statusCode = 200;
      return { status: 'ok', version: API_VERSION, checks };
    },
  },
  ready: {
    auth: 'none',
    rateLimit: false,
    handler(this: GatewaySelf) {
      return readiness(this.broker, this.knex);
    },
  },
  metrics: {
    auth: 'none',
    rateLimit: false,
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
