import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ServiceSchema } from 'moleculer';
import type { Migration } from '../shared/migrations.js';
import { runtimeOf } from '../shared/runtime.js';

/** The channel every public event travels on (webhook-dispatcher consumes it). */
export const EVENTS_CHANNEL = 'fiscal.events';

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
          const sent = await this.knex.transaction(async (trx: Knex.Transaction) => {
            const rows = await trx(table).whereNull('published_at').orderBy('created_at').limit(100).forUpdate().skipLocked();
            for (const row of rows) {
              const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
              await this.broker.sendToChannel(row.channel, payload, { key: payload.partnerId });
            }
            if (rows.length) {
              await trx(table).whereIn('id', rows.map((r: any) => r.id)).update({ published_at: runtimeOf(this.broker).clock.now(), attempts: trx.raw('attempts + 1') });
            }
            return rows.length;
          });
          total += sent;
          if (sent < 100) return total;
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
