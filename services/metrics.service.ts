import type { Service, ServiceSchema } from 'moleculer';
import { metricsOf } from './shared/metrics.js';

/**
 * Every node runs this, whatever SERVICES selects (services/broker.ts): it answers its own node's
 * Prometheus metrics as prom-client JSON, so the gateway can serve all nodes' series at
 * `GET /metrics` (services/gateway/metrics-scrape.ts). Internal (`$`): no REST route, and health
 * does not list it among the product's services.
 */
export const METRICS_SERVICE = '$metrics';

const MetricsService: ServiceSchema = {
  name: METRICS_SERVICE,
  actions: {
    scrape: {
      visibility: 'public',
      handler(this: Service) {
        return metricsOf(this.broker).registry.getMetricsAsJSON();
      },
    },
  },
};

export default MetricsService;
