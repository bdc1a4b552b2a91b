import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { anEvent, liveKey, publishAndWait, runDue, subscribe, waitFor } from '../../support/webhooks.js';

const NOW = '2026-11-22T12:00:00.000Z';
const DAY = 86_400_000;
const MIN = 60_000;
// The two-node test joins a Redis transporter; its shared clients close with the file.
test.after.always(() => closeAllRedis());

const nodes = [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }];

type Status = 'pending' | 'in_flight' | 'delivered' | 'failed' | 'dead';

/**
 * Inserts deliveries as the dispatcher leaves them (each with one attempt row): `finishedDaysAgo`
 * is when a finished row reached its status (its last write); running rows carry their schedule.
 */
async function seed(knex: Knex, partnerId: string, rows: { status: Status; finishedDaysAgo: number }[], now = new Date(NOW)): Promise<string[]> {
  const ids: string[] = [];
  const deliveries = rows.map(({ status, finishedDaysAgo }) => {
    const id = randomUUID();
    ids.push(id);
    const at = new Date(now.getTime() - finishedDaysAgo * DAY);
    return {
      id, partner_id: partnerId, event_id: randomUUID(), event_type: 'invoice.authorized', body: '{}', status,
      max_attempts: 5, attempts: 1, total_attempts: 1, created_at: new Date(at.getTime() - DAY), updated_at: at,
      next_attempt_at: status === 'pending' ? new Date(at.getTime() + 5 * MIN) : null,
      locked_until: status === 'in_flight' ? new Date(at.getTime() + MIN) : null,
      locked_by: status === 'in_flight' ? 'some-node' : null,
      delivered_at: status === 'delivered' ? at : null, dead_at: status === 'dead' ? at : null,
    };
  });
  for (let i = 0; i < deliveries.length; i += 500) await knex('webhooks.deliveries').insert(deliveries.slice(i, i + 500));
  const attempts = deliveries.map((d) => ({ id: randomUUID(), delivery_id: d.id, number: 1, url: 'https://example.com/h', started_at: d.updated_at, finished_at: d.updated_at }));
  for (let i = 0; i < attempts.length; i += 500) await knex('webhooks.attempts').insert(attempts.slice(i, i + 500));
  return ids;
}

const purge = async (stack: Stack, node = 0): Promise<number> => {
  const broker = stack.nodes[node]!;
  return ((await broker.call('v1.webhook-dispatcher.purgeExpired', {}, { nodeID: broker.nodeID })) as { purged: number }).purged;
};

const remaining = async (knex: Knex, partnerId: string) => (await knex('webhooks.deliveries').where({ partner_id: partnerId }).pluck('id')).sort();

test('retention purge deletes delivered rows after 30 days and dead or failed rows after 90, with their attempts, and keeps the rest', async (t) => {
  const stack = await startStack({ clock: new ManualClock(NOW), nodes, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_RETENTION_INTERVAL_MS: '0' } });
  t.teardown(() => stack.stop());
  const [gone, kept] = [
    await seed(stack.knex, 'p-ret', [
      { status: 'delivered', finishedDaysAgo: 31 },
      { status: 'delivered', finishedDaysAgo: 400 },
      { status: 'dead', finishedDaysAgo: 91 },
      { status: 'failed', finishedDaysAgo: 91 },
    ]),
    await seed(stack.knex, 'p-ret', [
      { status: 'delivered', finishedDaysAgo: 29 },
      { status: 'delivered', finishedDaysAgo: 30 }, // exactly at the cutoff: kept (strictly older goes)
      { status: 'dead', finishedDaysAgo: 89 },
      { status: 'dead', finishedDaysAgo: 31 }, // past the delivered retention, not the exhausted one
      { status: 'failed', finishedDaysAgo: 60 },
      { status: 'pending', finishedDaysAgo: 400 }, // schedule still running, however old
      { status: 'in_flight', finishedDaysAgo: 400 },
    ]),
  ];
  t.is(await purge(stack), gone.length);
  t.deepEqual(await remaining(stack.knex, 'p-ret'), [...kept].sort());
  t.deepEqual((await stack.knex('webhooks.attempts').whereIn('delivery_id', [...gone, ...kept]).pluck('delivery_id')).sort(), [...kept].sort());
  t.is(await purge(stack), 0, 'a second run finds nothing');

  // What the partner sees: the purged dead rows left the DLQ, the kept ones are still there.
  const dlq = await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-ret') });
  t.is(dlq.status, 200);
  t.deepEqual(dlq.body.data.items.map((d: any) => d.deliveryId).sort(), [kept[2], kept[3]].sort());
});

test('a dead delivery retried from the DLQ long after it died is not purged while its new schedule runs', async (t) => {
  const clock = new ManualClock(NOW);
  const stack = await startStack({ clock, nodes, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_RETENTION_INTERVAL_MS: '0' } });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  receiver.status = 500;
  await subscribe(stack, receiver, 'p-revived');
  const event = anEvent('p-revived', 'invoice.authorized', clock.now());
  await publishAndWait(stack, event);
  await runDue(stack);
  for (const wait of [5 * MIN, 30 * MIN, 120 * MIN, 24 * 60 * MIN]) { clock.advance(wait); await runDue(stack); }
  const row = await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first();
  t.is(row.status, 'dead');

  clock.advance(120 * DAY);
  const retry = await stack.request('POST', `/v1/webhooks/dlq/${row.id}/retry`, { headers: liveKey('p-revived') });
  t.is(retry.status, 200);
  t.is(await purge(stack), 0);
  t.like(await stack.knex('webhooks.deliveries').where({ id: row.id }).first(), { status: 'pending' });
  t.is(await stack.knex('webhooks.attempts').where({ delivery_id: row.id }).count({ n: '*' }).then((r) => Number(r[0]!.n)), 5);

  // Delivered now, it is history like any other and goes 30 days later.
  receiver.status = 200;
  await runDue(stack);
  clock.advance(30 * DAY + 1);
  t.is(await purge(stack), 1);
  t.is(await stack.knex('webhooks.deliveries').where({ id: row.id }).first(), undefined);
});

test('two nodes purging at once delete every expired row exactly once and nothing else', async (t) => {
  const stack = await startStack({
    redis: true, clock: new ManualClock(NOW), env: { WEBHOOK_POLL_MS: '0', WEBHOOK_RETENTION_INTERVAL_MS: '0' },
    nodes: [{ services: ['webhook-dispatcher'] }, { services: ['webhook-dispatcher'] }],
  });
  t.teardown(() => stack.stop());
  const expired = [
    ...Array.from({ length: 1_700 }, () => ({ status: 'delivered' as const, finishedDaysAgo: 31 + Math.floor(Math.random() * 300) })),
    ...Array.from({ length: 800 }, () => ({ status: 'dead' as const, finishedDaysAgo: 91 + Math.floor(Math.random() * 300) })),
  ];
  const live = [
    ...Array.from({ length: 300 }, () => ({ status: 'delivered' as const, finishedDaysAgo: Math.floor(Math.random() * 30) })),
    ...Array.from({ length: 100 }, () => ({ status: 'pending' as const, finishedDaysAgo: 200 })),
  ];
  await seed(stack.knex, 'p-two', expired);
  const kept = await seed(stack.knex, 'p-two', live);

  // Two runs per node, all at once: batches of 500 with SKIP LOCKED, so they interleave.
  const results = await Promise.all([0, 1, 0, 1].map((node) => purge(stack, node)));
  t.log(`rows purged per run: ${results.join(', ')}`);
  t.is(results.reduce((a, b) => a + b, 0), expired.length, `per run: ${results.join(', ')}`);
  t.deepEqual(await remaining(stack.knex, 'p-two'), [...kept].sort());
  t.is(Number((await stack.knex('webhooks.attempts').count({ n: '*' }))[0]!.n), kept.length);
});

test('each node purges on its own timer every WEBHOOK_RETENTION_INTERVAL_MS', async (t) => {
  const stack = await startStack({ clock: new ManualClock(NOW), nodes, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_RETENTION_INTERVAL_MS: '100', WEBHOOK_RETENTION_DELIVERED_DAYS: '7' } });
  t.teardown(() => stack.stop());
  const kept = await seed(stack.knex, 'p-timer', [{ status: 'delivered', finishedDaysAgo: 6 }]);
  await seed(stack.knex, 'p-timer', [{ status: 'delivered', finishedDaysAgo: 8 }]);
  await waitFor(async () => (await remaining(stack.knex, 'p-timer')).length === 1, 'timer purge', 5_000);
  t.deepEqual(await remaining(stack.knex, 'p-timer'), kept);
});
