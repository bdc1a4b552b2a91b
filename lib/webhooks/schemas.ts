import { WEBHOOK_EVENT_TYPES } from './events.js';
import { MAX_URL_LENGTH } from './url-policy.js';

/** Request schemas of the webhook routes (API.md, Endpoints > Webhooks); they also feed OpenAPI. */

/** PATCH /v1/webhooks/config. No `secret` key: strict refuses it as an unknown field. */
export const configPatchSchema = {
  $$strict: true,
  webhookUrl: { type: 'string', min: 1, max: MAX_URL_LENGTH, optional: true, nullable: true, description: 'URL https que recebe os eventos (absent ou null mantém a atual).' },
  events: {
    type: 'array',
    optional: true,
    nullable: true,
    unique: true,
    items: { type: 'enum', values: [...WEBHOOK_EVENT_TYPES] },
    description: 'Eventos assinados. Lista vazia = todos exceto sefaz.status.changed (opt-in). Absent ou null mantém a atual.',
  },
} as const;

/** ?limit=1..100, default 50 (API.md, Limits > Webhook retries). */
export const limitSchema = {
  $$strict: true,
  limit: { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true, default: 50 },
} as const;

export const deliveryIdSchema = {
  $$strict: true,
  deliveryId: { type: 'uuid' },
} as const;

export const emptySchema = { $$strict: true } as const;

const attemptJson = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Valor do header X-Webhook-Delivery desta tentativa.' },
    number: { type: 'integer' },
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: ['string', 'null'], format: 'date-time' },
    statusCode: { type: ['integer', 'null'] },
    latencyMs: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
  },
};

export const deliveryJson = {
  type: 'object',
  properties: {
    deliveryId: { type: 'string', format: 'uuid' },
    eventId: { type: 'string', format: 'uuid' },
    type: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'in_flight', 'delivered', 'failed', 'dead'] },
    attemptCount: { type: 'integer' },
    nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    lastStatusCode: { type: ['integer', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    deliveredAt: { type: ['string', 'null'], format: 'date-time' },
    deadAt: { type: ['string', 'null'], format: 'date-time' },
    attempts: { type: 'array', items: attemptJson },
  },
};

export const configJson = {
  type: 'object',
  properties: {
    webhookUrl: { type: ['string', 'null'] },
    webhookSecret: { type: ['string', 'null'], description: 'Mascarado (whsec_ab...xy), exceto quando revealedOnce é true.' },
    events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } },
    revealedOnce: { type: 'boolean' },
  },
};
