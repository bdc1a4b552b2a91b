import { randomUUID } from 'node:crypto';
import type { Stack } from './stack.js';
import { fakeCallerKey } from './fake-auth.js';
import type { Receiver } from './webhook-receiver.js';
import { EVENTS_CHANNEL, type OutboxEvent } from '../../services/mixins/outbox.mixin.js';

export const liveKey = (partnerId: string) => ({ 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'live', plan: 'SCALE' }) });
export const testKey = (partnerId: string) => ({ 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'test', plan: 'SCALE' }) });

export async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Configures the partner's webhook to the receiver and gives the receiver the revealed secret. */
export async function subscribe(stack: Stack, receiver: Receiver, partnerId: string, events: string[] = []): Promise<string> {
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: liveKey(partnerId), body: { webhookUrl: receiver.url, events } });
  if (res.status !== 200 || !res.body.data.revealedOnce) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
  receiver.secret = res.body.data.webhookSecret;
  return res.body.data.webhookSecret;
}

export function anEvent(partnerId: string, type = 'invoice.authorized', at = new Date()): OutboxEvent {
  return {
    id: randomUUID(), type, timestamp: at.toISOString(), partnerId,
    data: { invoiceId: randomUUID(), model: '55', number: 1, series: 1, accessKey: null, status: 'AUTHORIZED', amount: '10.00' },
  };
}

/** Publishes on the fiscal.events stream, which the dispatcher still consumes (events of an earlier version's relay). */
export async function publish(stack: Stack, event: OutboxEvent, node = 0): Promise<void> {
  await stack.nodes[node]!.sendToChannel(EVENTS_CHANNEL, event, { key: event.partnerId } as any);
}

/** Publishes and waits until the dispatcher has recorded the delivery. */
export async function publishAndWait(stack: Stack, event: OutboxEvent, node = 0): Promise<void> {
  await publish(stack, event, node);
  await waitFor(() => stack.knex('webhooks.deliveries').where({ event_id: event.id }).first(), `delivery of ${event.id}`);
}

export async function runDue(stack: Stack, node = 0): Promise<number> {
  const broker = stack.nodes[node]!;
  const res: { processed: number } = await broker.call('v1.webhook-dispatcher.runDue', {}, { nodeID: broker.nodeID });
  return res.processed;
}
