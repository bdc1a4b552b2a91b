import { ALL_SUBSCRIBERS, type OutboxEvent } from '../mixins/outbox.mixin.js';
import { isSubscribed, isWebhookEventType } from '../../lib/webhooks/events.js';
import { MAX_ATTEMPTS } from '../../lib/webhooks/backoff.js';
import type { ConfigReader } from './config-cache.js';
import type { DeliveryStore, NewDelivery } from './delivery-store.js';
import { isIdShaped } from '../../lib/validation/uuid.js';

const FAN_OUT_PAGE = 500;

/** What turning events into deliveries needs from the dispatcher. */
export interface AcceptDeps {
  configs: ConfigReader;
  deliveries: DeliveryStore;
  now(): Date;
  /** A malformed event is dropped (it can never be delivered); the dispatcher logs it. */
  dropped(event: unknown): void;
}

function wellFormed(deps: AcceptDeps, event: OutboxEvent | null | undefined): event is OutboxEvent {
  const ok = !!event && isIdShaped(event.id) && typeof event.partnerId === 'string' && isWebhookEventType(event.type);
  if (!ok) deps.dropped(event);
  return ok;
}

/** The exact bytes signed and POSTed (API.md, Events > Payload): the event without its partner. */
const bodyOf = (event: OutboxEvent) => JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });

const delivery = (deps: AcceptDeps, event: OutboxEvent, partnerId: string): NewDelivery =>
  ({ partnerId, eventId: event.id, type: event.type, body: bodyOf(event), maxAttempts: MAX_ATTEMPTS, now: deps.now() });

/**
 * One delivery per (partner, event id) if subscribed; redelivery is a no-op. Returns how many
 * deliveries are new, so the caller nudges the scheduler only when there is something to send.
 */
export async function acceptOne(deps: AcceptDeps, event: OutboxEvent): Promise<number> {
  if (!wellFormed(deps, event)) return 0;
  if (event.partnerId === ALL_SUBSCRIBERS) return fanOut(deps, event);
  const config = await deps.configs.get(event.partnerId);
  if (!config?.webhookUrl || !isSubscribed(config.events, event.type)) return 0;
  return (await deps.deliveries.enqueue(delivery(deps, event, event.partnerId))) ? 1 : 0;
}

/**
 * The same as acceptOne for every event of a relay's batch, in two statements whatever its size
 * (issue 18): the configurations of its partners in one query, its deliveries in one insert.
 * All or none for the partners' own events: on an error the caller retries event by event.
 */
export async function acceptAll(deps: AcceptDeps, events: readonly OutboxEvent[]): Promise<number> {
  const valid = events.filter((e) => wellFormed(deps, e));
  const own = valid.filter((e) => e.partnerId !== ALL_SUBSCRIBERS);
  const configs = await deps.configs.getMany([...new Set(own.map((e) => e.partnerId))]);
  const rows = own.filter((e) => {
    const config = configs.get(e.partnerId);
    return !!config?.webhookUrl && isSubscribed(config.events, e.type);
  }).map((e) => delivery(deps, e, e.partnerId));
  let enqueued = await deps.deliveries.enqueueMany(rows);
  for (const e of valid) if (e.partnerId === ALL_SUBSCRIBERS) enqueued += await fanOut(deps, e);
  return enqueued;
}

/**
 * A platform-wide event becomes one delivery per subscribed partner, under the event's own id.
 * A redelivered event (or a retry after a failure half-way) re-walks the list: deliveries
 * already recorded are kept by the unique (partner, event id), so each partner gets it once.
 */
async function fanOut(deps: AcceptDeps, event: OutboxEvent): Promise<number> {
  let enqueued = 0;
  let after: string | null = null;
  for (;;) {
    const page = await deps.configs.withWebhook(after, FAN_OUT_PAGE);
    enqueued += await deps.deliveries.enqueueMany(page.filter((c) => isSubscribed(c.events, event.type)).map((c) => delivery(deps, event, c.partnerId)));
    if (page.length < FAN_OUT_PAGE) return enqueued;
    after = page[page.length - 1]!.partnerId;
  }
}
