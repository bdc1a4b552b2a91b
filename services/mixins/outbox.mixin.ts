import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ServiceSchema } from 'moleculer';
import type { Migration } from '../shared/migrations.js';
import { runtimeOf } from '../shared/runtime.js';

/** The channel every public event travels on (webhook-dispatcher consumes it). */
export const EVENTS_CHANNEL = 'fiscal.events';

/**
 * `partnerId` of a platform-wide event that belongs to no single partner (`sefaz.status.changed`):
 * the webhook dispatcher delivers it to every partner subscribed to its type.
 */
export const ALL_SUBSCRIBERS = '*';

/** How long a relay owns a claimed row before another relay may take it over. */
const CLAIM_MS = 60_000;

/** A public event as API.md, Events > Payload, plus the partner it belongs to. */
export interface OutboxEvent {
  id: string;
  type: string;
  timestamp: string;
  partnerId: string;
  data: Record<string, unknown>;
}

/** Migration creating `<schema>.outbox`; list it in the service's migrations. */
export const outboxMigration: Migration = {
  name: '000_outbox',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('outbox', (t) => {
      t.uuid('id').primary();
      t.string('channel', 100).notNullable();
      t.jsonb('payload').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('published_at', { useTz: true });
      t.integer('attempts').notNullable().defaultTo(0);
      /** A relay claimed the row until then (it publishes outside any transaction). */
      t.timestamp('claimed_until', { useTz: true });
      t.index(['published_at', 'created_at']);
    });
  },
};

export interface OutboxMethods {
  /** Writes an event in the caller's transaction; it is published only after commit. */
  enqueueEvent(trx: Knex | Knex.Transaction, event: Omit<OutboxEvent, 'id' | 'timestamp'> & { id?: string; timestamp?: string }): Promise<OutboxEvent>;
  flushOutbox(): Promise<number>;
}

/**
 * Transactional outbox: events are rows committed with the state change that caused them, then
 * relayed to a channel (Redis Streams with a consumer group, or in-process without Redis). A crash
 * after commit and before publishing only delays the event: the relay picks unpublished rows up
 * again, on any replica (rows are claimed with SKIP LOCKED). Consumers deduplicate by event id.
 */
export function OutboxMixin(opts: { schema: string; pollMs?: number }): Partial<ServiceSchema> {
  const table = `${opts.schema}.outbox`;
  return {
    methods: {
      async enqueueEvent(this: any, trx: Knex, event: any): Promise<OutboxEvent> {
        const now = runtimeOf(this.broker).clock.now();
        const full: OutboxEvent = { id: event.id ?? randomUUID(), timestamp: event.timestamp ?? now.toISOString(), type: event.type, partnerId: event.partnerId, data: event.data };
        await trx(table).insert({ id: full.id, channel: EVENTS_CHANNEL, payload: JSON.stringify(full), created_at: now });
        // Nudge the relay once the caller's transaction had a chance to commit.
        setImmediate(() => this.scheduleOutboxFlush?.());
        return full;
      },
      async flushOutbox(this: any): Promise<number> {
        if (!this.knex) return 0;
        let total = 0;
        for (;;) {
          const now = runtimeOf(this.broker).clock.now();
          // Claim in a short transaction, publish outside it: a handler in this same process may
          // need the database (PGlite has one connection), and no lock is held across I/O.
          const rows: any[] = await this.knex.transaction(async (trx: Knex.Transaction) => {
            const due = await trx(table).whereNull('published_at')
              .andWhere((q: Knex.QueryBuilder) => q.whereNull('claimed_until').orWhere('claimed_until', '<', now))
              .orderBy('created_at').limit(100).forUpdate().skipLocked();
            if (due.length) await trx(table).whereIn('id', due.map((r: any) => r.id)).update({ claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: trx.raw('attempts + 1') });
            return due;
          });
          const published: string[] = [];
          for (const row of rows) {
            const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
            try {
              await this.publishOutboxEvent(row.channel, payload);
              published.push(row.id);
            } catch (err) {
              this.logger.warn({ err: (err as Error).message, eventId: row.id }, 'outbox publish failed; the event stays pending');
            }
          }
          const done = runtimeOf(this.broker).clock.now();
          if (published.length) await this.knex(table).whereIn('id', published).update({ published_at: done, claimed_until: null });
          const failed = rows.map((r) => r.id).filter((id) => !published.includes(id));
          if (failed.length) await this.knex(table).whereIn('id', failed).update({ claimed_until: null });
          total += published.length;
          if (rows.length < 100 || failed.length) return total;
        }
      },
      /**
       * With Redis: the channel is a Redis Stream with consumer groups, which keeps the message and
       * redelivers it until a consumer acks. Without Redis every service runs in this process, and
       * the in-memory channel adapter neither queues durably nor reports failures; so the relay
       * runs the local channel handlers itself and marks the row published only once they all
       * succeeded (at-least-once; consumers deduplicate by event id).
       */
      async publishOutboxEvent(this: any, channel: string, payload: OutboxEvent) {
        if (runtimeOf(this.broker).config.redisUrl) {
          await this.broker.sendToChannel(channel, payload, { key: payload.partnerId });
          return;
        }
        for (const svc of this.broker.services as any[]) {
          const def = svc.schema?.channels?.[channel];
          if (!def) continue;
          const handler = typeof def === 'function' ? def : def.handler;
          await handler.call(svc, payload, { payload });
        }
      },
      scheduleOutboxFlush(this: any) {
        if (this.outboxFlushing) { this.outboxAgain = true; return; }
        this.outboxFlushing = true;
        this.flushOutbox()
          .catch((err: Error) => this.logger.warn({ err: err.message }, 'outbox relay failed; will retry'))
          .finally(() => {
            this.outboxFlushing = false;
            if (this.outboxAgain) { this.outboxAgain = false; this.scheduleOutboxFlush(); }
          });
      },
    },
    started(this: any) {
      this.outboxTimer = setInterval(() => this.scheduleOutboxFlush(), opts.pollMs ?? 1_000);
      this.outboxTimer.unref?.();
    },
    stopped(this: any) {
      clearInterval(this.outboxTimer);
    },
  };
}
