/**
 * Webhook delivery throughput: N events published on fiscal.events, recorded by the dispatcher,
 * then sent (claim with SKIP LOCKED → signed POST → result recorded) to a local receiver. Also
 * prints how many TCP connections the receiver accepted and the POST latency the dispatcher recorded.
 * Needs the local Postgres (and Redis with --redis). A benchmark, not a test:
 *   npx tsx bench/webhooks.ts [--events 2000] [--redis]
 */
import { startStack } from '../test/support/stack.js';
import { FakeAuthService } from '../test/support/fake-auth.js';
import { startReceiver } from '../test/support/webhook-receiver.js';
import { anEvent, publish, runDue, subscribe, waitFor } from '../test/support/webhooks.js';
import { closeAllRedis } from '../services/shared/redis.js';

const args = process.argv.slice(2);
const N = Number(args[args.indexOf('--events') + 1] || 0) || 2000;
const redis = args.includes('--redis');

const stack = await startStack({ redis, env: { WEBHOOK_POLL_MS: '0' }, nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }] });
const receiver = await startReceiver();
try {
  await subscribe(stack, receiver, 'p-bench');
  const count = async (status?: string) => Number((await (status ? stack.knex('webhooks.deliveries').where({ status }) : stack.knex('webhooks.deliveries')).count({ n: '*' }))[0]!.n);

  const t0 = performance.now();
  // Chunks of 100: the in-process channel adapter (no Redis) rejects messages beyond its queue.
  for (let i = 0; i < N; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, N - i) }, () => publish(stack, anEvent('p-bench'))));
    await waitFor(async () => (await count()) === Math.min(N, i + 100), 'deliveries recorded', 60_000);
  }
  const ingestMs = performance.now() - t0;

  const t1 = performance.now();
  let sent = 0;
  while (sent < N) sent += await runDue(stack);
  const sendMs = performance.now() - t1;
  if ((await count('delivered')) !== N || receiver.hits.length !== N || !receiver.hits.every((h) => h.verified)) throw new Error('not every delivery arrived verified');
  // Time of each POST as the dispatcher measured it (connection, request, response), in ms.
  const latencies: number[] = (await stack.knex('webhooks.attempts').pluck('latency_ms')).map(Number).sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];

  console.log(JSON.stringify({
    events: N, transport: redis ? 'redis-streams' : 'in-process',
    ingestPerSecond: Math.round(N / (ingestMs / 1000)),
    deliveriesPerSecond: Math.round(N / (sendMs / 1000)),
    endToEndPerSecond: Math.round(N / ((ingestMs + sendMs) / 1000)),
    receiverConnections: receiver.connections,
    postLatencyMs: { p50: pct(50), p99: pct(99) },
  }));
} finally {
  await receiver.close();
  await stack.stop();
  await closeAllRedis();
}
