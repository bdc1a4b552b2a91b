import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { ServiceSchema } from 'moleculer';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { DbMixin } from '../../../services/mixins/db.mixin.js';
import { EVENTS_CHANNEL, OutboxMixin, outboxMigration } from '../../../services/mixins/outbox.mixin.js';
import { PRODUCT_CLASS_CHANNEL } from '../../../services/shared/product-class-event.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { subscribe, waitFor } from '../../support/webhooks.js';

test.after.always(() => closeAllRedis());

/** The dispatcher's database "down" for acceptEvents: the batch and the event-by-event path both throw; returns the undo. */
function storingFails(dispatcher: any): () => void {
  const { acceptBatch, acceptEvent } = dispatcher;
  dispatcher.acceptBatch = dispatcher.acceptEvent = async () => { throw new Error('database unavailable'); };
  return () => Object.assign(dispatcher, { acceptBatch, acceptEvent });
}

/** A producer as emission will be: the event is committed with its state change, then relayed. */
const Producer: ServiceSchema = {
  name: 'webhook-test-producer',
  mixins: [DbMixin({ schema: 'producer_test', migrations: [outboxMigration] }), OutboxMixin({ schema: 'producer_test', pollMs: 50 })],
  actions: {
    emit: {
      visibility: 'public',
      handler(this: any, ctx: any) {
        return this.knex.transaction((trx: any) => this.enqueueEvent(trx, ctx.params));
      },
    },
  },
};

test('an event committed to a producer outbox reaches the partner receiver through the dispatcher on another node', async (t) => {
  const stack = await startStack({
    redis: true,
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }, { services: ['webhook-dispatcher'], extra: [Producer] }],
  });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await subscribe(stack, receiver, 'p-outbox', ['invoice.authorized']);

  const data = { invoiceId: '0b6a3c1e-9d7f-4a51-8c2e-3f4d5e6a7b8c', model: '55', number: 42, series: 1, accessKey: '35261112345678000195550010000000421000000420', status: 'AUTHORIZED', amount: '1234.56' };
  const event = await stack.nodes[1]!.call<any, any>('webhook-test-producer.emit', { type: 'invoice.authorized', partnerId: 'p-outbox', data });
  // The dispatchers' own timers (default poll) deliver it; no runDue here.
  await waitFor(async () => receiver.hits.length > 0, 'the webhook POST', 20_000);
  t.is(receiver.hits.length, 1);
  t.true(receiver.hits[0]!.verified);
  t.deepEqual(receiver.hits[0]!.body, { id: event.id, type: 'invoice.authorized', timestamp: event.timestamp, data });
  t.regex(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('without Redis a burst of outbox events all reach the dispatcher, and a failing consumer leaves them pending until it recovers', async (t) => {
  const stack = await startStack({
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService, Producer] }],
    env: { WEBHOOK_POLL_MS: '0' },
  });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await subscribe(stack, receiver, 'p-burst', ['invoice.authorized']);
  const broker = stack.nodes[0]!;
  const data = { invoiceId: '0b6a3c1e-9d7f-4a51-8c2e-3f4d5e6a7b8c', model: '55', number: 1, series: 1, accessKey: null, status: 'AUTHORIZED', amount: '1.00' };

  // The dispatcher's database is "down": storing the delivery throws, so nothing may be marked published.
  const dispatcher: any = broker.getLocalService('v1.webhook-dispatcher');
  const restore = storingFails(dispatcher);
  await broker.call('webhook-test-producer.emit', { type: 'invoice.authorized', partnerId: 'p-burst', data });
  const producer: any = broker.getLocalService('webhook-test-producer');
  await producer.flushOutbox();
  t.is(Number((await stack.knex('producer_test.outbox').whereNull('published_at').count('* as n'))[0]!.n), 1);

  restore();
  await Promise.all(Array.from({ length: 300 }, () => broker.call('webhook-test-producer.emit', { type: 'invoice.authorized', partnerId: 'p-burst', data })));
  await waitFor(async () => {
    await producer.flushOutbox();
    const pending = Number((await stack.knex('producer_test.outbox').whereNull('published_at').count('* as n'))[0]!.n);
    return pending === 0;
  }, 'outbox drained', 30_000);
  t.is(Number((await stack.knex('webhooks.deliveries').count('* as n'))[0]!.n), 301);
});

test('an event the dispatcher cannot store stays pending and does not hold back the events after it', async (t) => {
  const stack = await startStack({
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService, Producer] }],
    env: { WEBHOOK_POLL_MS: '0' },
  });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await subscribe(stack, receiver, 'p-poison', ['invoice.authorized']);
  const broker = stack.nodes[0]!;
  const data = { invoiceId: '0b6a3c1e-9d7f-4a51-8c2e-3f4d5e6a7b8c', model: '55', number: 1, series: 1, accessKey: null, status: 'AUTHORIZED', amount: '1.00' };
  const dispatcher: any = broker.getLocalService('v1.webhook-dispatcher');
  const producer: any = broker.getLocalService('webhook-test-producer');
  // The insert of the batch fails as a whole, then that of the one event: the others still go in.
  const store = dispatcher.deliveries();
  const { enqueue, enqueueMany } = store;
  let poison = '';
  const tooLong = () => new Error('value too long for type character varying(64)');
  store.enqueueMany = async (rows: any[]) => { if (rows.some((r) => r.eventId === poison)) throw tooLong(); return enqueueMany.call(store, rows); };
  store.enqueue = async (row: any) => { if (row.eventId === poison) throw tooLong(); return enqueue.call(store, row); };
  // Written one by one so they are claimed in this order: the unstorable one first.
  poison = (await broker.call<any, any>('webhook-test-producer.emit', { type: 'invoice.authorized', partnerId: 'p-poison', data })).id;
  const others = [];
  for (let i = 0; i < 3; i++) others.push((await broker.call<any, any>('webhook-test-producer.emit', { type: 'invoice.authorized', partnerId: 'p-poison', data })).id);
  // The relay's own nudges and poll run too; flush until the others are through.
  await waitFor(async () => {
    await producer.flushOutbox();
    return (await stack.knex('producer_test.outbox').whereNull('published_at').pluck('id')).length === 1;
  }, 'the storable events handed over', 15_000);
  t.deepEqual(await stack.knex('producer_test.outbox').whereNull('published_at').pluck('id'), [poison]);
  const stored = await stack.knex('webhooks.deliveries').where({ partner_id: 'p-poison' }).pluck('event_id');
  t.deepEqual(stored.sort(), [...others].sort());
});

test('a channel whose consumer is down, with more pending rows than one claim, does not hold back another channel', async (t) => {
  const taken: string[] = [];
  const FakeClassification: ServiceSchema = {
    name: 'classification', version: 1,
    actions: { acceptProductClassEvents: { visibility: 'public', handler(ctx: any) { const ids = ctx.params.events.map((e: any) => e.id); taken.push(...ids); return { accepted: ids }; } } },
  };
  // Its relay only runs when the test flushes: rows are inserted directly, with no nudge.
  const Quiet: ServiceSchema = { name: 'outbox-test-quiet', mixins: [DbMixin({ schema: 'quiet_test', migrations: [outboxMigration] }), OutboxMixin({ schema: 'quiet_test', pollMs: 3_600_000 })] };
  const stack = await startStack({
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService, Quiet, FakeClassification] }],
    env: { WEBHOOK_POLL_MS: '0' },
  });
  t.teardown(() => stack.stop());
  const broker = stack.nodes[0]!;
  const dispatcher: any = broker.getLocalService('v1.webhook-dispatcher');
  const relay: any = broker.getLocalService('outbox-test-quiet');
  storingFails(dispatcher);
  const row = (id: string, channel: string, at: number) => ({ id, channel, created_at: new Date(at), payload: JSON.stringify({ id, type: 'invoice.authorized', timestamp: new Date(at).toISOString(), partnerId: 'p-stall', data: {} }) });
  const start = Date.now();
  // 150 public events older than the product-class row: more than one claim of the stalled channel.
  await stack.knex('quiet_test.outbox').insert(Array.from({ length: 150 }, (_, i) => row(randomUUID(), EVENTS_CHANNEL, start + i)));
  const classId = randomUUID();
  await stack.knex('quiet_test.outbox').insert(row(classId, PRODUCT_CLASS_CHANNEL, start + 1_000));
  t.is(await relay.flushOutbox(), 1);
  t.deepEqual(taken, [classId]);
  t.deepEqual(await stack.knex('quiet_test.outbox').whereNotNull('published_at').pluck('id'), [classId]);
  t.is(Number((await stack.knex('quiet_test.outbox').whereNull('published_at').whereNull('claimed_until').count('* as n'))[0]!.n), 150, 'released for the next poll');
});

/** A producer as emission's outcome is: the event's row in a statement that commits by itself, handed off (eventsCte). */
const HandOff: ServiceSchema = {
  name: 'outbox-test-handoff',
  // No poll in the test's time: only the hand-off can deliver.
  mixins: [DbMixin({ schema: 'handoff_test', migrations: [outboxMigration] }), OutboxMixin({ schema: 'handoff_test', pollMs: 3_600_000 })],
  actions: {
    emit: {
      visibility: 'public',
      async handler(this: any, ctx: any) {
        const cte = this.eventsCte('events', [{ key: 'changed-row', event: ctx.params }], 'changed');
        await this.knex.raw(`with changed as (select 'changed-row' as id), ${cte.sql} select 1`, cte.bindings);
        cte.written(new Set(['changed-row']));
        return JSON.parse(cte.bindings[4] as string);
      },
    },
  },
};

async function handOffStack(t: any, partnerId: string) {
  const stack = await startStack({ nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService, HandOff] }], env: { WEBHOOK_POLL_MS: '0' } });
  t.teardown(() => stack.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await subscribe(stack, receiver, partnerId, ['invoice.authorized']);
  const broker = stack.nodes[0]!;
  return { stack, broker, relay: broker.getLocalService('outbox-test-handoff') as any, dispatcher: broker.getLocalService('v1.webhook-dispatcher') as any };
}

const handOffData = { invoiceId: '0b6a3c1e-9d7f-4a51-8c2e-3f4d5e6a7b8c', model: '55', number: 7, series: 1, accessKey: null, status: 'AUTHORIZED', amount: '1.00' };
const outboxRow = (stack: any, id: string) => stack.knex('handoff_test.outbox').where({ id }).first('published_at', 'claimed_until', 'attempts');

test('a handed-off event reaches the dispatcher from memory: its row is written claimed, no claiming statement, then marked published', async (t) => {
  const { stack, broker } = await handOffStack(t, 'p-handoff');
  const seen: string[] = [];
  // The relay's statements on the table, not this test's own reads of the row.
  stack.knex.on('query', (q: { sql: string }) => { if (q.sql.includes('"handoff_test"."outbox"') && !q.sql.startsWith('select "published_at"')) seen.push(q.sql); });
  const event = await broker.call<any, any>('outbox-test-handoff.emit', { type: 'invoice.authorized', partnerId: 'p-handoff', data: handOffData });
  await waitFor(async () => !!(await outboxRow(stack, event.id))?.published_at, 'the row published', 10_000);
  t.deepEqual(await stack.knex('webhooks.deliveries').where({ partner_id: 'p-handoff' }).pluck('event_id'), [event.id]);
  const row = await outboxRow(stack, event.id);
  t.is(row.claimed_until, null);
  t.is(row.attempts, 1, 'written claimed, as attempt 1');
  t.is(seen.length, 2, seen.join('\n'));
  t.regex(seen[0]!, /^with changed as \(select .changed-row. as id\), events as \(insert into "handoff_test"\."outbox"/);
  t.regex(seen[1]!, /^update "handoff_test"\."outbox" set published_at = \$1, claimed_until = null where id in \(\$2\)$/);
});

test('events handed off in the same moment reach the dispatcher together and are marked published in one statement', async (t) => {
  const { stack, broker, relay } = await handOffStack(t, 'p-handoff-burst');
  const marks: string[] = [];
  stack.knex.on('query', (q: { sql: string }) => { if (q.sql.startsWith('update "handoff_test"."outbox" set published_at')) marks.push(q.sql); });
  // "The same moment" made certain: a round in flight holds the hand-offs back until all three are
  // written (three commits can be more than the 20 ms coalescing window apart on a busy machine),
  // then ends the way a round ends, with the hand-offs it held still to deliver.
  relay.outboxFlushing = true;
  const events = await Promise.all([1, 2, 3].map((number) => broker.call<any, any>('outbox-test-handoff.emit', { type: 'invoice.authorized', partnerId: 'p-handoff-burst', data: { ...handOffData, number } })));
  t.is(relay.outboxHandoff.length, 3, 'all three handed off, waiting');
  relay.outboxFlushing = false;
  relay.scheduleOutboxFlush(false);
  await waitFor(async () => (await Promise.all(events.map((e) => outboxRow(stack, e.id)))).every((r) => !!r?.published_at), 'the rows published', 10_000);
  t.deepEqual((await stack.knex('webhooks.deliveries').where({ partner_id: 'p-handoff-burst' }).pluck('event_id')).sort(), events.map((e) => e.id).sort());
  t.deepEqual(marks, ['update "handoff_test"."outbox" set published_at = $1, claimed_until = null where id in ($2, $3, $4)']);
});

test('a handed-off event its consumer cannot take is released at once and relayed by the next poll', async (t) => {
  const { stack, broker, relay, dispatcher } = await handOffStack(t, 'p-handoff-down');
  const restore = storingFails(dispatcher);
  const event = await broker.call<any, any>('outbox-test-handoff.emit', { type: 'invoice.authorized', partnerId: 'p-handoff-down', data: handOffData });
  await waitFor(async () => (await outboxRow(stack, event.id))?.claimed_until === null, 'the claim released', 10_000);
  t.is((await outboxRow(stack, event.id)).published_at, null);
  restore();
  t.is(await relay.flushOutbox(), 1);
  t.truthy((await outboxRow(stack, event.id)).published_at);
  t.deepEqual(await stack.knex('webhooks.deliveries').where({ partner_id: 'p-handoff-down' }).pluck('event_id'), [event.id]);
});

test('a relay that stops with handed-off events not yet delivered releases their claims for another node', async (t) => {
  const { stack, broker, relay } = await handOffStack(t, 'p-handoff-stop');
  // A round "in flight" that never ends by itself: the hand-off only queues.
  relay.outboxFlushing = true;
  const event = await broker.call<any, any>('outbox-test-handoff.emit', { type: 'invoice.authorized', partnerId: 'p-handoff-stop', data: handOffData });
  t.truthy((await outboxRow(stack, event.id)).claimed_until, 'written claimed');
  await broker.destroyService(relay);
  const row = await outboxRow(stack, event.id);
  t.is(row.claimed_until, null);
  t.is(row.published_at, null);
});
