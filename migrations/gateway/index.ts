import type { Migration } from '../../services/shared/migrations.js';

/** Tables of the api-gateway service (schema `gateway`). */
export const migrations: Migration[] = [
  {
    name: '001_idempotency_keys',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('idempotency_keys', (t) => {
        t.bigIncrements('id').primary();
        t.string('partner_id', 64).notNullable();
        t.string('route', 300).notNullable();
        t.string('key', 255).notNullable();
        t.string('fingerprint', 64).notNullable();
        t.string('state', 16).notNullable(); // processing | done | released (services/gateway/idempotency.ts)
        t.integer('response_status');
        t.jsonb('response_body');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('locked_until', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.unique(['partner_id', 'route', 'key']);
        t.index(['expires_at']);
      });
    },
  },
];
