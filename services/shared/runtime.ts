import type { ServiceBroker } from 'moleculer';
import type { AppConfig } from '../../config.js';
import { systemClock, type Clock } from './clock.js';

/**
 * What a service needs from its node besides the broker: configuration and the clock. Kept out of
 * broker metadata on purpose (metadata is gossiped to other nodes; configuration holds secrets).
 */
export interface Runtime {
  config: AppConfig;
  clock: Clock;
}

const runtimes = new WeakMap<ServiceBroker, Runtime>();

export function attachRuntime(broker: ServiceBroker, runtime: Runtime): void {
  runtimes.set(broker, runtime);
}

export function runtimeOf(broker: ServiceBroker): Runtime {
  const rt = runtimes.get(broker);
  if (!rt) throw new Error('broker has no runtime attached (create it with createBroker)');
  return rt;
}

export { systemClock };
