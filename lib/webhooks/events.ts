/**
 * Public event types (API.md, Events > Event types). Names outside this list do not exist
 * (`invoice.correction`, `nfse.authorized`) and subscribing to them answers 400.
 */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.authorized',
  'invoice.rejected',
  'invoice.canceled',
  'invoice.contingency',
  'invoice.contingency.expired',
  'mdfe.authorized',
  'mdfe.closed',
  'cte.authorized',
  'cte.canceled',
  'cte.cce',
  'dfe.received',
  'certificate.expiring',
  'sefaz.status.changed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Types a partner receives only when listed explicitly in `events[]` (API.md: opt-in). */
export const OPT_IN_EVENT_TYPES: readonly WebhookEventType[] = ['sefaz.status.changed'];

/** Type of the delivery sent by `POST /v1/webhooks/test`; never produced by the platform. */
export const TEST_EVENT_TYPE = 'webhook.test';

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Whether a partner subscribed to `type`. An empty `events[]` means "every event except the
 * opt-in ones" (today only `sefaz.status.changed`); a non-empty list means exactly those types.
 */
export function isSubscribed(events: readonly string[], type: string): boolean {
  if (!isWebhookEventType(type)) return false;
  if (events.length === 0) return !OPT_IN_EVENT_TYPES.includes(type);
  return events.includes(type);
}
