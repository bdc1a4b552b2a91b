import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { verifyWebhookSignature } from '../../../lib/webhooks/verify-signature.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { ALL_SUBSCRIBERS } from '../../../services/mixins/outbox.mixin.js';
import { anEvent, liveKey, publish, publishAndWait, runDue, subscribe, testKey } from '../../support/webhooks.js';

const MIN = 60_000;
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let stack: Stack;
test.before(async () => {
  stack = await startStack({ clock, nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }], env: { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '2000' } });
});
test.after.always(async () => stack?.stop());

// The clock is shared by the whole file: tests that move it run serially.
async function withReceiver(t: any): Promise<Receiver> {
  const r = await startReceiver();
  t.teardown(() => r.close());
  return r;
}

test.serial('a delivery is the event exactly, signed with the secret, with event and delivery headers', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-sig');
  const event = anEvent('p-sig', 'invoice.authorized', clock.now());
  await publishAndWait(stack, event);
  t.is(await runDue(stack), 1);
  t.is(receiver.hits.length, 1);
  const hit = receiver.hits[0]!;
  t.true(hit.verified);
  t.deepEqual(hit.body, { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
  t.is(hit.headers['x-webhook-event'], 'invoice.authorized');
  t.is(hit.headers['content-type'], 'application/json');
  const attempt = await stack.knex('webhooks.attempts').first();
  t.is(hit.headers['x-webhook-delivery'], attempt.id);
  const delivery = await stack.knex('webhooks.deliveries').where({ event_id: event.id }).first();
  t.is(delivery.status, 'delivered');
});

test.serial('after regenerate the signature verifies with the new secret and fails with the old one', async (t) => {
  const receiver = await withReceiver(t);
  const old = await subscribe(stack, receiver, 'p-regen');
  const regen = await stack.request('POST', '/v1/webhooks/secret/regenerate', { headers: liveKey('p-regen') });
  const fresh: string = regen.body.data.webhookSecret;
  t.not(fresh, old);
  await publishAndWait(stack, anEvent('p-regen', 'invoice.rejected', clock.now()));
  await runDue(stack);
  const hit = receiver.hits[0]!;
  t.false(hit.verified); // the receiver still holds the old secret
  t.false(verifyWebhookSignature(old, hit.raw, hit.headers['x-webhook-signature'] as string));
  t.true(verifyWebhookSignature(fresh, hit.raw, hit.headers['x-webhook-signature'] as string));
});

test.serial('a receiver answering 500 gets exactly 5 attempts at 0, +5 min, +30 min, +2 h, +24 h, then the DLQ', async (t) => {
  const receiver = await withReceiver(t);
  receiver.status = 500;
  await subscribe(stack, receiver, 'p-500');
  const event = anEvent('p-500', 'invoice.canceled', clock.now());
  await publishAndWait(stack, event);
  const t0 = clock.now().getTime();
  await runDue(stack);
  t.is(receiver.hits.length, 1);
  for (const wait of [5 * MIN, 30 * MIN, 120 * MIN, 24 * 60 * MIN]) {
    const before = receiver.hits.length;
    clock.advance(wait - 1_000);
    await runDue(stack);
    t.is(receiver.hits.length, before, 'not due one second early');
    clock.advance(1_000);
    await runDue(stack);
    t.is(receiver.hits.length, before + 1);
  }
  clock.advance(7 * 24 * 60 * MIN);
  await runDue(stack);
  t.is(receiver.hits.length, 5);
  t.is(new Set(receiver.hits.map((h) => h.headers['x-webhook-delivery'])).size, 5);
  t.true(receiver.hits.every((h) => h.body.id === event.id && h.verified));

  const attempts = await stack.knex('webhooks.attempts as a').join('webhooks.deliveries as d', 'd.id', 'a.delivery_id').where('d.event_id', event.id).orderBy('a.number').select('a.*');
  t.deepEqual(attempts.map((a: any) => new Date(a.started_at).getTime() - t0), [0, 5 * MIN, 35 * MIN, 155 * MIN, 1595 * MIN]);

  const dlq = await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-500') });
  t.is(dlq.status, 200);
  t.is(dlq.body.data.total, 1);
  const item = dlq.body.data.items[0];
  t.like(item, { eventId: event.id, type: 'invoice.canceled', status: 'dead', attemptCount: 5, lastStatusCode: 500, nextAttemptAt: null });
  t.deepEqual(item.attempts.map((a: any) => a.statusCode), [500, 500, 500, 500, 500]);
  t.true(item.attempts.every((a: any) => Number.isInteger(a.latencyMs) && a.finishedAt));

  // DLQ retry: a fresh schedule starting now; the receiver is fixed.
  receiver.status = 200;
  const retry = await stack.request('POST', `/v1/webhooks/dlq/${item.deliveryId}/retry`, { headers: liveKey('p-500') });
  t.is(retry.status, 200);
  t.like(retry.body.data, { deliveryId: item.deliveryId, status: 'pending', nextAttemptAt: clock.now().toISOString() });
  await runDue(stack);
  t.is(receiver.hits.length, 6);
  const logs = await stack.request('GET', '/v1/webhooks/logs', { headers: liveKey('p-500') });
  t.like(logs.body.data[0], { deliveryId: item.deliveryId, status: 'delivered', attemptCount: 6, lastStatusCode: 200 });
  t.is((await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-500') })).body.data.total, 0);

  // Retrying a delivery that is not dead is a conflict; an unknown id (or another partner's) is 404.
  const again = await stack.request('POST', `/v1/webhooks/dlq/${item.deliveryId}/retry`, { headers: liveKey('p-500') });
  t.is(again.status, 409);
  t.is(again.body.error.type, 'https://errors.test/ENTREGA_FORA_DA_DLQ');
  const other = await stack.request('POST', `/v1/webhooks/dlq/${item.deliveryId}/retry`, { headers: liveKey('p-someone-else') });
  t.is(other.status, 404);
});

/** Publishes `n` events and runs their whole schedule against a failing receiver. */
async function exhaust(partnerId: string, n: number) {
  for (let i = 0; i < n; i++) await publishAndWait(stack, anEvent(partnerId, 'invoice.authorized', clock.now()));
  await runDue(stack);
  for (const wait of [5 * MIN, 30 * MIN, 120 * MIN, 24 * 60 * MIN]) { clock.advance(wait); await runDue(stack); }
}

test.serial('DLQ retry-all reschedules every dead delivery and purge empties the DLQ', async (t) => {
  const receiver = await withReceiver(t);
  receiver.status = 503;
  await subscribe(stack, receiver, 'p-dlq');
  await exhaust('p-dlq', 2);
  t.is(receiver.hits.length, 10);
  t.is((await stack.request('GET', '/v1/webhooks/dlq?limit=1', { headers: liveKey('p-dlq') })).body.data.total, 2);
  t.is((await stack.request('GET', '/v1/webhooks/dlq?limit=1', { headers: liveKey('p-dlq') })).body.data.items.length, 1);

  receiver.status = 204;
  const all = await stack.request('POST', '/v1/webhooks/dlq/retry-all', { headers: liveKey('p-dlq') });
  t.deepEqual([all.status, all.body.data], [200, { rescheduled: 2 }]);
  await runDue(stack);
  t.is(receiver.hits.length, 12);
  t.is((await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-dlq') })).body.data.total, 0);

  receiver.status = 500;
  await exhaust('p-dlq', 1);
  t.is(receiver.hits.length, 17);
  t.is((await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-dlq') })).body.data.total, 1);
  const purge = await stack.request('DELETE', '/v1/webhooks/dlq', { headers: liveKey('p-dlq') });
  t.deepEqual([purge.status, purge.body.data], [200, { purged: 1 }]);
  t.deepEqual((await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-dlq') })).body.data, { total: 0, items: [] });
  // Delivered history stays in the logs.
  t.is((await stack.request('GET', '/v1/webhooks/logs', { headers: liveKey('p-dlq') })).body.data.length, 2);
});

test.serial('sefaz.status.changed is delivered only to partners that listed it in events[]', async (t) => {
  const all = await withReceiver(t);
  const optIn = await withReceiver(t);
  await subscribe(stack, all, 'p-all', []);
  await subscribe(stack, optIn, 'p-optin', ['sefaz.status.changed']);
  const sefaz = (p: string) => ({ ...anEvent(p, 'sefaz.status.changed', clock.now()), data: { uf: 'SP', status: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente', ambiente: 'producao', checkedAt: clock.now().toISOString() } });
  const ignoredSefaz = sefaz('p-all');
  const ignoredInvoice = anEvent('p-optin', 'invoice.authorized', clock.now());
  await publish(stack, ignoredSefaz);
  await publish(stack, ignoredInvoice);
  await publishAndWait(stack, anEvent('p-all', 'invoice.authorized', clock.now()));
  await publishAndWait(stack, sefaz('p-optin'));
  await new Promise((r) => setTimeout(r, 200));
  await runDue(stack);
  t.deepEqual(all.hits.map((h) => h.body.type), ['invoice.authorized']);
  t.deepEqual(optIn.hits.map((h) => h.body.type), ['sefaz.status.changed']);
  t.is(await stack.knex('webhooks.deliveries').whereIn('event_id', [ignoredSefaz.id, ignoredInvoice.id]).first(), undefined);
});

test.serial('a platform-wide event (partnerId *) is delivered once to every partner subscribed to its type, under its own id', async (t) => {
  const optIn1 = await withReceiver(t);
  const optIn2 = await withReceiver(t);
  const all = await withReceiver(t);
  const other = await withReceiver(t);
  await subscribe(stack, optIn1, 'p-fan-1', ['sefaz.status.changed']);
  await subscribe(stack, optIn2, 'p-fan-2', ['invoice.authorized', 'sefaz.status.changed']);
  await subscribe(stack, all, 'p-fan-all', []);
  await subscribe(stack, other, 'p-fan-other', ['invoice.rejected']);
  const event = { ...anEvent(ALL_SUBSCRIBERS, 'sefaz.status.changed', clock.now()), data: { uf: 'RS', status: 'up', cStat: 107, xMotivo: 'Serviço em Operação', ambiente: 'homologacao', checkedAt: clock.now().toISOString() } };
  await publishAndWait(stack, event);
  await publish(stack, event); // redelivered by the stream: no second delivery
  await new Promise((r) => setTimeout(r, 200));
  await runDue(stack);
  const expected = { id: event.id, type: 'sefaz.status.changed', timestamp: event.timestamp, data: event.data };
  t.deepEqual(optIn1.hits.map((h) => h.body), [expected]);
  t.deepEqual(optIn2.hits.map((h) => h.body), [expected]);
  t.true(optIn1.hits[0]!.verified && optIn2.hits[0]!.verified);
  t.is(all.hits.length, 0);
  t.is(other.hits.length, 0);
  // p-optin of an earlier test also opted in; p-all and p-fan-* without the type did not.
  const rows = await stack.knex('webhooks.deliveries').where({ event_id: event.id }).orderBy('partner_id');
  t.deepEqual(rows.map((r: any) => r.partner_id), ['p-fan-1', 'p-fan-2', 'p-optin']);
});

test.serial('the same event received twice from the channel is delivered once', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-dup');
  const event = anEvent('p-dup', 'certificate.expiring', clock.now());
  await publishAndWait(stack, event);
  await publish(stack, event);
  await new Promise((r) => setTimeout(r, 200));
  await runDue(stack);
  t.is(receiver.hits.length, 1);
  t.is((await stack.knex('webhooks.deliveries').where({ event_id: event.id })).length, 1);
});

test.serial('POST /webhooks/test sends one signed test delivery, also with an ek_test_ key, and never enters the DLQ', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-test');
  const ok = await stack.request('POST', '/v1/webhooks/test', { headers: testKey('p-test') });
  t.is(ok.status, 200);
  t.like(ok.body.data, { type: 'webhook.test', status: 'delivered', attemptCount: 1, lastStatusCode: 200 });
  t.is(receiver.hits.length, 1);
  t.true(receiver.hits[0]!.verified);
  t.is(receiver.hits[0]!.headers['x-webhook-event'], 'webhook.test');
  t.is(receiver.hits[0]!.body.id, ok.body.data.eventId);

  receiver.status = 500;
  const bad = await stack.request('POST', '/v1/webhooks/test', { headers: liveKey('p-test') });
  t.like(bad.body.data, { status: 'failed', attemptCount: 1, lastStatusCode: 500 });
  clock.advance(30 * 60 * MIN);
  await runDue(stack);
  t.is(receiver.hits.length, 2);
  t.is((await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-test') })).body.data.total, 0);
});

test.serial('an unreachable receiver counts as a failed attempt with the connection error', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-down');
  await receiver.close();
  const res = await stack.request('POST', '/v1/webhooks/test', { headers: liveKey('p-down') });
  t.like(res.body.data, { status: 'failed', lastStatusCode: null });
  t.regex(res.body.data.attempts[0].error, /ECONNREFUSED/);
});

test.serial('acceptEvents stores a mixed batch in one configs read and one insert: each partner gets only what it subscribed to', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-batch-a');
  await subscribe(stack, receiver, 'p-batch-b', ['invoice.canceled']);
  const a1 = anEvent('p-batch-a', 'invoice.authorized', clock.now());
  const a2 = anEvent('p-batch-a', 'invoice.canceled', clock.now());
  const bSkipped = anEvent('p-batch-b', 'invoice.authorized', clock.now());
  const b1 = anEvent('p-batch-b', 'invoice.canceled', clock.now());
  const none = anEvent('p-batch-none', 'invoice.authorized', clock.now());
  const malformed = { ...anEvent('p-batch-a'), type: 'invoice.unknown' };
  const events = [a1, bSkipped, none, malformed, b1, a2, a1];
  const statements: string[] = [];
  // Verb and table of each statement on the dispatcher's tables.
  const listener = (q: { sql: string }) => { const m = /^(\w+).*?"webhooks"\."(\w+)"/.exec(q.sql); if (m) statements.push(`${m[1]} ${m[2]}`); };
  stack.knex.on('query', listener);
  const res: { accepted: string[] } = await stack.nodes[0]!.call('v1.webhook-dispatcher.acceptEvents', { events });
  stack.knex.off('query', listener);
  t.deepEqual(res, { accepted: events.map((e) => e.id) });
  t.deepEqual(statements, ['select configs', 'insert deliveries']);
  const stored = await stack.knex('webhooks.deliveries').whereIn('event_id', events.map((e) => e.id)).orderBy(['partner_id', 'event_type']).select('partner_id', 'event_id', 'status');
  t.deepEqual(stored, [
    { partner_id: 'p-batch-a', event_id: a1.id, status: 'pending' },
    { partner_id: 'p-batch-a', event_id: a2.id, status: 'pending' },
    { partner_id: 'p-batch-b', event_id: b1.id, status: 'pending' },
  ]);
});
