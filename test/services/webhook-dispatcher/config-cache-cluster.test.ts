import test from 'ava';
import type { ServiceBroker } from 'moleculer';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import type { LeasedCache } from '../../../services/shared/leased-cache.js';
import type { OutboxEvent } from '../../../services/mixins/outbox.mixin.js';
import { anEvent, liveKey } from '../../support/webhooks.js';

/**
 * The per-node cache of webhook configs (services/webhooks/config-cache.ts) on two dispatcher
 * nodes over the Redis transporter: node 0 runs the gateway and takes the configuration writes,
 * node 1 accepts relayed events, as an outbox relay calls it. Node 1 holds the partner's config
 * (or its absence) in cache before each write and follows it as soon as the write has answered.
 */
const LEASE_MS = 1_500;
const URL = 'http://127.0.0.1:9/hook'; // never called: the scheduler is off (WEBHOOK_POLL_MS 0)
let stack: Stack;

test.before(async () => {
  stack = await startStack({
    redis: true,
    env: { CACHE_LEASE_MS: String(LEASE_MS), WEBHOOK_POLL_MS: '0' },
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }, { services: ['webhook-dispatcher'] }],
  });
});
test.after.always(async () => {
  await stack?.stop();
  await closeAllRedis();
});

const acceptor = () => stack.nodes[1]!;
const cacheOf = (broker: ServiceBroker) => (broker.getLocalService('v1.webhook-dispatcher') as unknown as { _configCache: { local: LeasedCache<unknown> } })._configCache.local;

/** What a relay does: hands the event to this node's dispatcher; answers whether a delivery was recorded. */
async function accept(broker: ServiceBroker, event: OutboxEvent): Promise<boolean> {
  const res: { accepted: string[] } = await broker.call('v1.webhook-dispatcher.acceptEvents', { events: [event] }, { nodeID: broker.nodeID });
  if (!res.accepted.includes(event.id)) throw new Error(`event ${event.id} not accepted`);
  return !!(await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first());
}

/** Accepts events on the node until its cache holds the partner's config (nothing is kept for a lease after a node joined). */
async function warm(broker: ServiceBroker, partnerId: string): Promise<void> {
  const deadline = Date.now() + 4 * LEASE_MS;
  for (;;) {
    await accept(broker, anEvent(partnerId, 'invoice.rejected'));
    if (cacheOf(broker).peek(partnerId) !== undefined) return;
    if (Date.now() > deadline) throw new Error(`node ${broker.nodeID} never cached the config of ${partnerId}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function patch(partnerId: string, body: Record<string, unknown>): Promise<void> {
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: liveKey(partnerId), body });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
}

test.serial('a partner without a webhook, then configured: the other node records the next event at once', async (t) => {
  await warm(acceptor(), 'p-new');
  t.is(cacheOf(acceptor()).peek('p-new'), null, 'the absence of a config is what node 1 holds');
  t.false(await accept(acceptor(), anEvent('p-new')));
  await patch('p-new', { webhookUrl: URL, events: ['invoice.authorized'] });
  t.true(await accept(acceptor(), anEvent('p-new')));
});

test.serial('events subscribed changed both ways: the other node follows each change at once', async (t) => {
  await patch('p-events', { webhookUrl: URL, events: ['invoice.canceled'] });
  await warm(acceptor(), 'p-events');
  t.false(await accept(acceptor(), anEvent('p-events', 'invoice.authorized')));
  await patch('p-events', { events: ['invoice.authorized'] });
  t.true(await accept(acceptor(), anEvent('p-events', 'invoice.authorized')));
  await warm(acceptor(), 'p-events');
  await patch('p-events', { events: ['invoice.canceled'] });
  t.false(await accept(acceptor(), anEvent('p-events', 'invoice.authorized')));
  t.true(await accept(acceptor(), anEvent('p-events', 'invoice.canceled')));
});

test.serial('a secret regenerated: the other node drops the partner config as the write answers', async (t) => {
  await patch('p-secret', { webhookUrl: URL });
  await warm(acceptor(), 'p-secret');
  const res = await stack.request('POST', '/v1/webhooks/secret/regenerate', { headers: liveKey('p-secret'), body: {} });
  t.is(res.status, 200, res.text);
  t.is(cacheOf(acceptor()).peek('p-secret'), undefined);
});

test.serial('a batch of several partners reads only those the node does not hold', async (t) => {
  await patch('p-batch-a', { webhookUrl: URL, events: ['invoice.authorized'] });
  await warm(acceptor(), 'p-batch-a');
  const statements: string[] = [];
  const listener = (q: { sql: string }) => { if (q.sql.includes('"webhooks"."configs"')) statements.push(q.sql); };
  stack.knex.on('query', listener);
  try {
    const events = [anEvent('p-batch-a'), anEvent('p-batch-b'), anEvent('p-batch-a')];
    const res: { accepted: string[] } = await acceptor().call('v1.webhook-dispatcher.acceptEvents', { events }, { nodeID: acceptor().nodeID });
    t.deepEqual(res.accepted, events.map((e) => e.id));
    t.deepEqual((await stack.knex('webhooks.deliveries').whereIn('event_id', events.map((e) => e.id)).pluck('partner_id')).sort(), ['p-batch-a', 'p-batch-a']);
  } finally {
    stack.knex.off('query', listener);
  }
  t.is(statements.length, 1, statements.join('\n'));
  t.regex(statements[0]!, /"partner_id" in \(\$1\)/, 'one partner read: the one not held');
});
