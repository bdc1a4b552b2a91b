import type { Migration } from '../../services/shared/migrations.js';

/** Tables of the webhook-dispatcher service (schema `webhooks`). */
export const migrations: Migration[] = [
  {
    name: '001_configs_deliveries_attempts',
    async up(knex, schema) {
      // One configuration per partner (API.md, Events). The secret is sealed with AES-256-GCM
      // (lib/webhooks/secret-box.ts); `secret_hint` is its masked form, so reads never decrypt.
      await knex.schema.withSchema(schema).createTable('configs', (t) => {
        t.string('partner_id', 64).primary();
        t.text('webhook_url');
        t.jsonb('events').notNullable().defaultTo('[]');
        t.text('secret_sealed');
        t.string('secret_key_id', 64);
        t.string('secret_hint', 32);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
      });
      // One row per (partner, event): the schedule of its attempts lives here, so it survives
      // restarts of every node. status: pending | in_flight | delivered | failed | dead.
      await knex.schema.withSchema(schema).createTable('deliveries', (t) => {
        t.uuid('id').primary();
        t.string('partner_id', 64).notNullable();
        t.uuid('event_id').notNullable();
        t.string('event_type', 64).notNullable();
        t.text('body').notNullable(); // the exact bytes signed and POSTed
        t.string('status', 16).notNullable();
        t.integer('max_attempts').notNullable();
        t.integer('attempts').notNullable().defaultTo(0); // attempts of the current schedule
        t.integer('total_attempts').notNullable().defaultTo(0); // across DLQ retries: numbers the attempt rows
        t.timestamp('next_attempt_at', { useTz: true });
        t.timestamp('locked_until', { useTz: true });
        t.string('locked_by', 200);
        t.integer('last_status_code');
        t.text('last_error');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.timestamp('delivered_at', { useTz: true });
        t.timestamp('dead_at', { useTz: true });
        t.unique(['partner_id', 'event_id']);
        t.index(['status', 'next_attempt_at']);
        t.index(['partner_id', 'created_at']);
        t.index(['partner_id', 'status', 'dead_at']);
      });
      // One row per POST; its id is the X-Webhook-Delivery header (API.md, Events > Delivery).
      await knex.schema.withSchema(schema).createTable('attempts', (t) => {
        t.uuid('id').primary();
        t.uuid('delivery_id').notNullable().references('id').inTable(`${schema}.deliveries`).onDelete('CASCADE');
        t.integer('number').notNullable();
        t.text('url');
        t.timestamp('started_at', { useTz: true }).notNullable();
        t.timestamp('finished_at', { useTz: true });
        t.integer('status_code');
        t.integer('latency_ms');
        t.text('error');
        t.index(['delivery_id', 'number']);
      });
    },
  },
  {
    name: '002_deliveries_retention_index',
    async up(knex, schema) {
      // The retention purge (services/webhooks/purge.ts) looks for finished rows by status and by
      // the time they finished: the last write to a finished row is the one that finished it
      // (a DLQ retry makes it pending again).
      await knex.schema.withSchema(schema).alterTable('deliveries', (t) => {
        t.index(['status', 'updated_at'], 'deliveries_status_updated_at_index');
      });
    },
  },
];
