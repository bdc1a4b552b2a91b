import test from 'ava';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { DeliveryStore } from '../../../services/webhooks/delivery-store.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { anEvent, publish, publishAndWait, runDue, subscribe, waitFor } from '../../support/webhooks.js';

const MIN = 60_000;

// The gateway's rate limiter keeps a process-wide Redis client that stack.stop() does not close.
test.after.always(() => closeAllRedis());

test('a dispatcher node stopped mid-schedule is replaced by a new one that continues the persisted schedule', async (t) => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const stack = await startStack({
    redis: true, clock, env: { WEBHOOK_POLL_MS: '0' },
    nodes: [{ services: ['api-gateway'], extra: [FakeAuthService] }, { services: ['webhook-dispatcher'] }],
  });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  receiver.status = 500;
  await subscribe(stack, receiver, 'p-restart');
  const event = anEvent('p-restart', 'invoice.authorized', clock.now());
  await publishAndWait(stack, event, 1);
  const t0 = clock.now().getTime();

  await runDue(stack, 1); // attempt 1
  clock.advance(5 * MIN);
  await runDue(stack, 1); // attempt 2
  t.is(receiver.hits.length, 2);
  await stack.stopNode(1);

  clock.advance(30 * MIN); // attempt 3 falls due while no dispatcher runs
  const fresh = await stack.addNode({ services: ['webhook-dispatcher'] });
  await runDue(stack, fresh); // attempt 3, on the new node
  clock.advance(120 * MIN);
  await runDue(stack, fresh); // attempt 4
  clock.advance(24 * 60 * MIN);
  await runDue(stack, fresh); // attempt 5
  clock.advance(48 * 60 * MIN);
  await runDue(stack, fresh);
  t.is(receiver.hits.length, 5);
  const attempts = await stack.knex('webhooks.attempts').orderBy('number');
  t.deepEqual(attempts.map((a: any) => new Date(a.started_at).getTime() - t0), [0, 5 * MIN, 35 * MIN, 155 * MIN, 1595 * MIN]);
  const delivery = await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first();
  t.is(delivery.status, 'dead');
});

test('an attempt claimed by a node that died mid-POST is taken over when its lease expires, and counts', async (t) => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const stack = await startStack({ redis: true, clock, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '1000' }, nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }] });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await subscribe(stack, receiver, 'p-lease');
  const event = anEvent('p-lease', 'invoice.authorized', clock.now());
  await publishAndWait(stack, event);
  // A node that claims the attempt with the real claim and then dies before recording anything.
  const ghost = new DeliveryStore(stack.knex, 'webhooks');
  const [claimed] = await ghost.claimDue({ now: clock.now(), leaseMs: 61_000, nodeId: 'ghost-node', limit: 10 });
  t.truthy(claimed);
  t.is(await runDue(stack), 0, 'the lease still holds');
  clock.advance(61_000);
  t.is(await runDue(stack), 1);
  t.is(receiver.hits.length, 1);
  const attempts = await stack.knex('webhooks.attempts').orderBy('number');
  t.deepEqual(attempts.map((a: any) => [a.number, a.status_code, a.error]), [[1, null, 'interrompida: o nó parou durante o envio'], [2, 200, null]]);
  t.like(await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first(), { status: 'delivered', attempts: 2 });
});

test('a node that died mid-POST on the last attempt leaves the delivery dead once its lease expires, never sent again', async (t) => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const stack = await startStack({ redis: true, clock, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '1000' }, nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }] });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  receiver.status = 500;
  await subscribe(stack, receiver, 'p-last');
  const event = anEvent('p-last', 'invoice.authorized', clock.now());
  await publishAndWait(stack, event);
  for (const wait of [5, 30, 120, 24 * 60]) { // attempts 1 to 4 fail
    await runDue(stack);
    clock.advance(wait * MIN);
  }
  t.is(receiver.hits.length, 4);
  // The fifth attempt is claimed by a node that dies before recording anything.
  const ghost = new DeliveryStore(stack.knex, 'webhooks');
  const claimed = await ghost.claimDue({ now: clock.now(), leaseMs: 61_000, nodeId: 'ghost-node', limit: 10 });
  const row = await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first();
  const config = await stack.knex('webhooks.configs').where({ partner_id: 'p-last' }).first();
  const fifth = await stack.knex('webhooks.attempts').where({ delivery_id: row.id, number: 5 }).first();
  t.deepEqual(claimed, [{
    deliveryId: row.id, attemptId: fifth.id, attemptInSchedule: 5, maxAttempts: 5, partnerId: 'p-last', eventType: 'invoice.authorized',
    body: JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data }),
    url: receiver.url, secretSealed: { keyId: config.secret_key_id, sealed: config.secret_sealed },
  }]);
  t.like(row, { status: 'in_flight', attempts: 5, total_attempts: 5, locked_by: 'ghost-node' });
  clock.advance(61_000);
  t.is(await runDue(stack), 0, 'no attempt left to send');
  t.is(receiver.hits.length, 4);
  const attempts = await stack.knex('webhooks.attempts').where({ delivery_id: row.id }).orderBy('number');
  t.deepEqual(attempts.map((a: any) => [a.number, a.status_code, a.error]), [[1, 500, null], [2, 500, null], [3, 500, null], [4, 500, null], [5, null, 'interrompida: o nó parou durante o envio']]);
  t.like(await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first(), {
    status: 'dead', attempts: 5, locked_until: null, locked_by: null, next_attempt_at: null, last_error: 'interrompida', dead_at: clock.now(),
  });
});

test('two dispatcher nodes over Redis Streams never deliver the same attempt twice', async (t) => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const stack = await startStack({
    redis: true, clock, env: { WEBHOOK_POLL_MS: '5' },
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }, { services: ['webhook-dispatcher'] }],
  });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await subscribe(stack, receiver, 'p-race');
  const N = 150;

  // Both nodes' timers run, and the test hammers runDue on both at once as well.
  let hammering = true;
  const hammer = Promise.all([0, 1].map(async (node) => { while (hammering) await runDue(stack, node); }));
  const first = Array.from({ length: N }, () => anEvent('p-race', 'invoice.authorized', clock.now()));
  await Promise.all(first.map((e, i) => publish(stack, e, i % 2)));
  await waitFor(async () => (await stack.knex('webhooks.deliveries').where({ status: 'delivered' }).count({ n: '*' }))[0]!.n == N, 'first round delivered', 30_000);
  t.is(receiver.hits.length, N);
  t.is(new Set(receiver.hits.map((h) => h.body.id)).size, N);

  // Second round: every first attempt fails, then both nodes race for the retries.
  receiver.status = 500;
  const second = Array.from({ length: N }, () => anEvent('p-race', 'invoice.rejected', clock.now()));
  await Promise.all(second.map((e, i) => publish(stack, e, i % 2)));
  await waitFor(async () => (await stack.knex('webhooks.deliveries').where({ event_type: 'invoice.rejected', status: 'pending', attempts: 1 }).count({ n: '*' }))[0]!.n == N, 'first attempts failed', 30_000);
  receiver.status = 200;
  clock.advance(5 * MIN);
  await waitFor(async () => (await stack.knex('webhooks.deliveries').where({ event_type: 'invoice.rejected', status: 'delivered' }).count({ n: '*' }))[0]!.n == N, 'retries delivered', 30_000);
  hammering = false;
  await hammer;

  const retries = receiver.hits.filter((h) => h.body.type === 'invoice.rejected');
  t.is(retries.length, 2 * N);
  const perEvent = new Map<string, number>();
  for (const h of retries) perEvent.set(h.body.id, (perEvent.get(h.body.id) ?? 0) + 1);
  t.true([...perEvent.values()].every((n) => n === 2));
  t.is(new Set(receiver.hits.map((h) => h.headers['x-webhook-delivery'])).size, receiver.hits.length);
  const attempts = await stack.knex('webhooks.attempts').count({ n: '*' });
  t.is(Number(attempts[0]!.n), 3 * N);
});
