import type { ServiceBroker } from 'moleculer';

/**
 * A node drains from the moment it is told to stop (SIGTERM, SIGINT: server.ts) until it exits:
 * its readiness probe fails at once, so a load balancer takes it out of rotation while requests in
 * flight finish. Moleculer's own flags cover `broker.stop()` called any other way.
 */
const draining = new WeakSet<ServiceBroker>();

export function beginDrain(broker: ServiceBroker): void {
  draining.add(broker);
}

/** Ready: started, and neither draining nor stopping. */
export function isReady(broker: ServiceBroker): boolean {
  return broker.started && !(broker as any).stopping && !draining.has(broker);
}
