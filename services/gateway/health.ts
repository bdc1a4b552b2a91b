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

/** OpenAPI entries of the monitoring routes, outside /v1 (api-gateway's openApiDocument). */
export function monitoringPaths(): Record<string, unknown> {
  const probe = { security: [], tags: ['monitoramento'] };
  const noAuth = { ...probe, responses: { 200: { description: 'OK' }, 503: { description: 'Dependência indisponível' } } };
  return {
    '/health': { get: { operationId: 'api.health', summary: 'Saúde: banco, Redis (se configurado) e broker. Sem limite de taxa.', ...noAuth } },
    '/health/live': { get: { operationId: 'api.live', summary: 'Processo vivo. Sem limite de taxa.', ...noAuth } },
    '/version': { get: { operationId: 'api.version', summary: 'Versão da API (2.1.0) e build', ...noAuth } },
    '/api-docs-json': { get: { operationId: 'api.openapi', summary: 'Este documento OpenAPI 3.1', ...noAuth } },
    '/health/ready': {
      get: {
        ...probe, operationId: 'api.ready',
        summary: 'Prontidão: 503 assim que o nó começa a encerrar (SIGTERM) ou se uma dependência cair. Sem limite de taxa.',
        responses: { 200: { description: 'Pronto para receber requisições' }, 503: { description: 'Encerrando ou dependência indisponível' } },
      },
    },
    '/metrics': {
      get: {
        operationId: 'api.metrics', tags: ['monitoramento'],
        summary: 'Métricas Prometheus (formato texto) de todos os nós do cluster, com o rótulo node. Sem limite de taxa.',
        description: 'Aberta por padrão; com METRICS_TOKEN configurado exige Authorization: Bearer <METRICS_TOKEN>.',
        security: [{}, { bearer: [] }],
        responses: {
          200: { description: 'Exposição Prometheus', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: { description: 'METRICS_TOKEN configurado e ausente ou diferente' },
        },
      },
    },
  };
}
