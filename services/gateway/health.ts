import type { ServiceBroker } from 'moleculer';
import type { Knex } from 'knex';
import { runtimeOf } from '../shared/runtime.js';
import { getRedis } from '../shared/redis.js';
import { isReady } from '../shared/drain.js';
import { DomainError } from '../../lib/errors/index.js';

type Check = { status: 'up' | 'down'; [k: string]: unknown };

/**
 * What `/health` and `/health/ready` check: the database, Redis when configured, and the broker's
 * view of the cluster. Any dependency down is a 503 SERVICE_UNAVAILABLE naming it.
 */
export async function dependencyChecks(broker: ServiceBroker, knex: Knex): Promise<Record<string, Check>> {
  const { config } = runtimeOf(broker);
  const checks: Record<string, Check> = {};
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  checks.database = await knex.raw('select 1').then(() => ({ status: 'up' as const, kind }), () => ({ status: 'down' as const, kind }));
  if (config.redisUrl) {
    checks.redis = await getRedis(config.redisUrl).ping().then(() => ({ status: 'up' as const }), () => ({ status: 'down' as const }));
  }
  const nodes = (broker.registry as any).getNodeList({ onlyAvailable: true, withServices: false }).map((n: any) => n.id);
  const services = [...new Set((broker.registry as any).getServiceList({ onlyAvailable: true }).map((s: any) => s.fullName))].filter((n) => !String(n).startsWith('$'));
  checks.broker = { status: 'up', nodes, services };
  const down = Object.entries(checks).filter(([, c]) => c.status === 'down').map(([k]) => k);
  if (down.length) throw new DomainError('SERVICE_UNAVAILABLE', { checks }, `Dependência indisponível: ${down.join(', ')}.`);
  return checks;
}

/**
 * Readiness: this node takes new requests. It fails with 503 from the moment the node starts
 * draining (SIGTERM/SIGINT, or broker.stop() however called) and while its dependencies are down;
 * liveness (`/health/live`) stays 200 meanwhile, so the orchestrator waits instead of killing it.
 */
export async function readiness(broker: ServiceBroker, knex: Knex): Promise<{ status: 'ready'; node: string }> {
  if (!isReady(broker)) throw new DomainError('SERVICE_UNAVAILABLE', { node: broker.nodeID, draining: true }, 'Nó encerrando: não recebe novas requisições.');
  await dependencyChecks(broker, knex);
  return { status: 'ready', node: broker.nodeID };
}
