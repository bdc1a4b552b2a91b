import type { Migration } from '../../services/shared/migrations.js';

/**
 * Tables of the auth service (schema `auth`): partners and their members, users, sessions and
 * refresh-token families, API keys, 2FA recovery codes, lockout buckets, access requests,
 * invites, reset tokens and spent mfa tokens. Secrets are stored only as hashes (tokens, keys,
 * codes, passwords) or AES-256-GCM ciphertext (TOTP secrets).
 */
export const migrations: Migration[] = [
  {
    name: '001_identity',
    async up(knex, schema) {
      // A fresh builder per table: a SchemaBuilder accumulates statements across awaits.
      const s = () => knex.schema.withSchema(schema);
      await s().createTable('partners', (t) => {
        t.uuid('id').primary();
        t.string('name', 200).notNullable();
        t.string('plan', 16).notNullable().defaultTo('DEV');
        t.string('subscription_status', 16).notNullable().defaultTo('INACTIVE');
        t.integer('enterprise_rate_limit');
        t.boolean('active').notNullable().defaultTo(true);
        t.boolean('has_emitted').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('deactivated_at', { useTz: true });
      });
      await s().createTable('users', (t) => {
        t.uuid('id').primary();
        t.string('email', 254).notNullable().unique();
        t.string('name', 200).notNullable();
        t.string('role', 16).notNullable();
        t.uuid('partner_id').references('id').inTable(`${schema}.partners`);
        t.text('password_hash').notNullable();
        t.boolean('totp_enabled').notNullable().defaultTo(false);
        t.text('totp_secret_enc');
        t.text('totp_pending_enc');
        t.bigInteger('totp_last_step');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('password_changed_at', { useTz: true }).notNullable();
      });
      await s().createTable('partner_members', (t) => {
        t.uuid('user_id').primary().references('id').inTable(`${schema}.users`);
        t.uuid('partner_id').notNullable().references('id').inTable(`${schema}.partners`);
        t.string('role', 16).notNullable(); // OWNER | MEMBER
      });
      await knex.raw(`create unique index partner_one_owner on ??.partner_members (partner_id) where role = 'OWNER'`, [schema]);
      await s().createTable('sessions', (t) => {
        t.uuid('id').primary(); // also the refresh-token family
        t.uuid('user_id').notNullable().references('id').inTable(`${schema}.users`);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('revoked_at', { useTz: true });
        t.string('revoked_reason', 32);
        t.index(['user_id']);
      });
      await s().createTable('refresh_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.uuid('session_id').notNullable().references('id').inTable(`${schema}.sessions`);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.index(['session_id']);
      });
      await s().createTable('api_keys', (t) => {
        t.uuid('id').primary();
        t.uuid('partner_id').notNullable().references('id').inTable(`${schema}.partners`);
        t.string('kind', 8).notNullable(); // live | test
        t.string('key_id', 32).notNullable().unique();
        t.string('secret_hash', 64).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('revoked_at', { useTz: true });
        t.index(['partner_id', 'kind']);
      });
      await s().createTable('recovery_codes', (t) => {
        t.bigIncrements('id').primary();
        t.uuid('user_id').notNullable().references('id').inTable(`${schema}.users`);
        t.string('code_hash', 64).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.unique(['user_id', 'code_hash']);
      });
      await s().createTable('lockout_buckets', (t) => {
        t.string('bucket', 300).primary(); // email:<addr> | ip:<addr>
        t.integer('failures').notNullable().defaultTo(0);
        t.timestamp('last_failure_at', { useTz: true });
        t.timestamp('locked_until', { useTz: true });
      });
      await s().createTable('access_requests', (t) => {
        t.uuid('id').primary();
        t.string('name', 200).notNullable();
        t.string('email', 254).notNullable();
        t.string('company', 200).notNullable();
        t.string('whatsapp', 11).notNullable();
        t.jsonb('emits').notNullable();
        t.integer('volume_per_month');
        t.string('erp_stack', 200);
        t.string('status', 16).notNullable().defaultTo('PENDING'); // PENDING | APPROVED
        t.uuid('partner_id');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('decided_at', { useTz: true });
        t.index(['status', 'created_at']);
      });
      await s().createTable('invites', (t) => {
        t.string('token_hash', 64).primary();
        t.uuid('partner_id').notNullable().references('id').inTable(`${schema}.partners`);
        t.string('email', 254).notNullable();
        t.string('name', 200);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.index(['partner_id']);
      });
      await s().createTable('reset_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.uuid('user_id').notNullable().references('id').inTable(`${schema}.users`);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.index(['user_id']);
      });
    },
  },
  {
    name: '002_used_mfa_tokens',
    async up(knex, schema) {
      const s = () => knex.schema.withSchema(schema);
      // An mfa_token's jti once it completed a login (or a 2FA enrollment): the primary key makes
      // the spend atomic across replicas. Kept past the token's expiry by the purge's grace period.
      await s().createTable('used_mfa_tokens', (t) => {
        t.uuid('jti').primary();
        t.uuid('user_id').notNullable();
        t.timestamp('used_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.index(['expires_at']);
      });
    },
  },
  {
    name: '003_purge_indexes',
    async up(knex, schema) {
      const s = () => knex.schema.withSchema(schema);
      // The periodic purge (services/auth/purge.ts) looks rows up by expiry.
      await s().alterTable('sessions', (t) => { t.index(['expires_at']); t.index(['revoked_at']); });
      await s().alterTable('refresh_tokens', (t) => { t.index(['expires_at']); });
      await s().alterTable('reset_tokens', (t) => { t.index(['expires_at']); });
      await s().alterTable('invites', (t) => { t.index(['expires_at']); });
    },
  },
];
