import test from 'ava';
import type { ServiceSchema } from 'moleculer';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { DbMixin } from '../../../services/mixins/db.mixin.js';
import { EVENTS_CHANNEL, OutboxMixin, outboxMigration } from '../../../services/mixins/outbox.mixin.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { anEvent, subscribe, waitFor } from '../../support/webhooks.js';

test.after.always(() => closeAllRedis());

/**
 * Issue 18 counts SQL statements per note (each ~0.2-0.3 ms of CPU). This guards what one public
 * event costs after the producer committed it: relaying it to the dispatcher and, if the partner
 * has a webhook, the scheduler's claim, POST and result. Lower is welcome; higher fails with the list.
 * No webhook (most partners): the relay's claim, the dispatcher's configs read, the relay's
 * published mark; no scheduler round, since no delivery was recorded.
 */
const NO_WEBHOOK_STATEMENTS = 3;
/**
 * With a webhook: those 3, the delivery insert, the claim (attempt row included), the result
 * (BEGIN, attempt, delivery, COMMIT) and the scheduler's last claim that finds nothing due.
 */
const WITH_WEBHOOK_STATEMENTS = 10;

/** A producer whose relay runs only when the test flushes it (rows are written without a nudge). */
const Producer: ServiceSchema = {
  name: 'budget-test-producer',
  mixins: [DbMixin({ schema: 'budget_test', migrations: [outboxMigration] }), OutboxMixin({ schema: 'budget_test', pollMs: 3_600_000 })],
};

async function relayOneEvent(stack: Stack, partnerId: string): Promise<{ statements: string[]; eventId: string }> {
  const broker = stack.nodes[0]!;
  const event = anEvent(partnerId);
  await stack.knex('budget_test.outbox').insert({ id: event.id, channel: EVENTS_CHANNEL, payload: JSON.stringify(event), created_at: new Date() });
  const statements: string[] = [];
  const listener = (q: { sql: string }) => statements.push(q.sql);
  const dispatcher: any = broker.getLocalService('v1.webhook-dispatcher');
  stack.knex.on('query', listener);
  try {
    const relay: any = broker.getLocalService('budget-test-producer');
    await relay.flushOutbox();
    await new Promise((r) => setImmediate(r)); // a nudge of the scheduler runs on the next turn
    await dispatcher.round;
  } finally {
    stack.knex.off('query', listener);
  }
  return { statements, eventId: event.id };
}

const listed = (statements: string[]) => `${statements.length} statements:\n${statements.map((s) => s.slice(0, 140)).join('\n')}`;

test('relaying one event of a partner without a webhook costs at most its budget of statements and runs no scheduler round', async (t) => {
  // The scheduler runs on nudges only (a poll of an hour never fires during the test).
  const stack = await startStack({ nodes: [{ services: ['webhook-dispatcher'], extra: [Producer] }], env: { WEBHOOK_POLL_MS: '3600000' } });
  t.teardown(() => stack.stop());
  const { statements, eventId } = await relayOneEvent(stack, 'p-quiet');
  t.log(listed(statements));
  t.true(statements.length <= NO_WEBHOOK_STATEMENTS, listed(statements));
  t.false(statements.some((s) => s.includes('"webhooks"."deliveries"')), listed(statements));
  t.like(await stack.knex('budget_test.outbox').where({ id: eventId }).first(), { attempts: 1, claimed_until: null });
  t.truthy((await stack.knex('budget_test.outbox').where({ id: eventId }).first()).published_at);
  t.deepEqual(await stack.knex('webhooks.deliveries').pluck('event_id'), []);
});

for (const pglite of [false, true]) {
  test(`relaying and delivering one event of a partner with a webhook costs at most its budget of statements${pglite ? ' (embedded PGlite, one connection)' : ''}`, async (t) => {
    const stack = await startStack({ pglite, nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService, Producer] }], env: { WEBHOOK_POLL_MS: '3600000' } });
    t.teardown(() => stack.stop());
    const receiver = await startReceiver();
    t.teardown(() => receiver.close());
    await subscribe(stack, receiver, 'p-hooked', ['invoice.authorized']);
    const { statements, eventId } = await relayOneEvent(stack, 'p-hooked');
    t.log(listed(statements));
    t.true(statements.length <= WITH_WEBHOOK_STATEMENTS, listed(statements));
    t.true(statements.length >= 5, 'the listener sees the relay and the dispatcher');
    await waitFor(async () => receiver.hits.length > 0, 'the webhook POST');
    t.deepEqual(receiver.hits.map((h) => [h.body.id, h.verified]), [[eventId, true]]);
    t.like(await stack.knex('webhooks.deliveries').where({ event_id: eventId }).first(), { status: 'delivered', attempts: 1 });
    t.truthy((await stack.knex('budget_test.outbox').where({ id: eventId }).first()).published_at);
  });
}
