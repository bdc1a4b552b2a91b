import { ServiceBroker } from 'moleculer';
import { brokerOptions } from '../moleculer.config.js';
import type { AppConfig } from '../config.js';
import { ALL_SERVICES, SERVICE_LOADERS } from './index.js';
import { attachRuntime } from './shared/runtime.js';
import { systemClock, type Clock } from './shared/clock.js';
import MetricsService from './metrics.service.js';

export interface NodeOptions {
  config: AppConfig;
  clock?: Clock;
  /** Overrides config.services, even when empty (tests start partial nodes). */
  services?: readonly string[];
  /** Where logs go (tests capture them); default stdout. */
  logDestination?: NodeJS.WritableStream;
  /** Without REDIS_URL: listen on loopback for operator commands, or join such a node (moleculer.config.ts). */
  loopback?: { join?: string };
}

/** Creates one node: a broker with its runtime and the selected services, not yet started. */
export async function createNode(opts: NodeOptions): Promise<ServiceBroker> {
  const { config } = opts;
  const broker = new ServiceBroker(brokerOptions(config, { logDestination: opts.logDestination, loopback: opts.loopback }));
  attachRuntime(broker, { config, clock: opts.clock ?? systemClock });
  const names = opts.services ?? (config.services.length ? config.services : ALL_SERVICES);
  for (const name of names) {
    const load = SERVICE_LOADERS[name];
    if (!load) throw new Error(`unknown service '${name}' (known: ${ALL_SERVICES.join(', ')})`);
    broker.createService(await load());
  }
  // Every node answers its own metrics, so /metrics on a gateway covers the cluster.
  broker.createService(MetricsService);
  return broker;
}
