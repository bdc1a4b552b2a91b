/**
 * Drives POST /v1/nfe over HTTP with autocannon against 1 and then 2 emission nodes (Redis
 * transporter, Postgres, one gateway node) and prints throughput and p50/p99.
 *
 * Until the real document pipeline, issuer and sefaz services are wired, this runs with the
 * emission tests' stand-ins (test/support/fake-pipeline.ts, emission-world.ts): the figures
 * measure the emission service itself (numbering lock, persistence, outbox, two service calls,
 * gateway), not XML building or the authority simulator.
 *
 *   npm run bench            # 10 s per configuration, 50 connections
 *   BENCH_SECONDS=5 BENCH_CONNECTIONS=20 npm run bench
 */
// @ts-expect-error autocannon ships no type declarations (no @types package installed)
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { startStack } from '../test/support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../test/support/fake-auth.js';
import { EmissionWorld } from '../test/support/emission-world.js';
import { fakePipeline } from '../test/support/fake-pipeline.js';
import { bindPipeline } from '../services/emission/pipeline-binding.js';
import { closeAllRedis } from '../services/shared/redis.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
bindPipeline(fakePipeline);

async function run(emissionNodes: number) {
  const world = new EmissionWorld();
  const stack = await startStack({
    redis: true,
    nodes: [
      { services: ['api-gateway'], extra: [FakeAuthService, world.issuerService(), world.sefazService()] },
      ...Array.from({ length: emissionNodes }, () => ({ services: ['emission'] })),
    ],
  });
  try {
    const partnerId = `bench-${randomUUID()}`;
    world.addIssuer(partnerId);
    const body = JSON.stringify({ items: [{ codigo: 'P1', descricao: 'Produto', cfop: '5102', quantidade: 1, valorUnitario: 5 }] });
    const result = await autocannon({
      url: `${stack.url}/v1/nfe`, method: 'POST', connections, duration: seconds, body,
      headers: { 'content-type': 'application/json', 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'live', rateLimit: 1_000_000 }) },
    });
    const numbers = await stack.knex('emission.documents').count('* as n').first();
    return {
      emissionNodes, connections, seconds,
      requestsPerSecond: Math.round(result.requests.average), p50ms: result.latency.p50, p99ms: result.latency.p99,
      non2xx: result.non2xx, errors: result.errors, documents: Number(numbers?.n ?? 0),
    };
  } finally {
    await stack.stop();
  }
}

const rows = [await run(1), await run(2)];
console.table(rows);
await closeAllRedis();
