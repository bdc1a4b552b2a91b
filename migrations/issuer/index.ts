import type { Migration } from '../../services/shared/migrations.js';
import { outboxMigration } from '../../services/mixins/outbox.mixin.js';

/** Tables of the issuer service (schema `issuer`). */
export const migrations: Migration[] = [
  outboxMigration,
  {
    name: '001_issuers',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('issuers', (t) => {
        t.uuid('id').primary();
        t.string('partner_id', 64).notNullable();
        t.string('cnpj', 14).notNullable();
        t.smallint('ambiente_fiscal').notNullable().defaultTo(2);
        t.boolean('sandbox').notNullable().defaultTo(false);
        /** Every other Issuer field (lib/issuer/model.ts IssuerProfile). */
        t.jsonb('profile').notNullable();
        /** Public summary of the installed A1: subject, serial, validity, CNPJ. */
        t.jsonb('cert_summary');
        /** PKCS#12 and its password, each AES-256-GCM sealed (lib/crypto/aes-gcm.ts). */
        t.text('cert_pfx');
        t.text('cert_password');
        t.string('cert_fingerprint', 64);
        t.timestamp('cert_not_after', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        /** Removed issuers stay for the history of their documents; their secrets are wiped. */
        t.timestamp('deleted_at', { useTz: true });
        t.index(['partner_id']);
        t.index(['cert_not_after']);
      });
      // One live issuer per CNPJ across all partners (API.md: duplicate CNPJ answers 409 CNPJ_CONFLICT).
      await knex.raw('create unique index issuers_cnpj_unique on ??.issuers (cnpj) where deleted_at is null', [schema]);
    },
  },
  {
    name: '002_certificate_expiry_notices',
    async up(knex, schema) {
      // One row per (issuer, certificate serial, threshold): the unique key makes the daily job
      // announce each threshold once even when every node runs it.
      await knex.schema.withSchema(schema).createTable('certificate_expiry_notices', (t) => {
        t.uuid('issuer_id').notNullable();
        t.string('serial', 80).notNullable();
        t.smallint('threshold').notNullable();
        t.uuid('event_id').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.primary(['issuer_id', 'serial', 'threshold']);
      });
    },
  },
  {
    name: '003_transfer_requests',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('transfer_requests', (t) => {
        t.uuid('id').primary();
        t.string('cnpj', 14).notNullable();
        t.uuid('issuer_id').notNullable();
        t.string('requester_partner_id', 64).notNullable();
        t.string('holder_partner_id', 64).notNullable();
        t.text('motivo').notNullable();
        t.string('contato', 120);
        t.string('status', 16).notNullable(); // PENDENTE | APROVADA | RECUSADA
        t.text('decisao_motivo');
        t.string('decided_by', 64);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('decided_at', { useTz: true });
        t.index(['status', 'created_at']);
      });
      await knex.raw(`create unique index transfer_requests_one_pending on ??.transfer_requests (cnpj, requester_partner_id) where status = 'PENDENTE'`, [schema]);
    },
  },
  {
    // issue 22 item 4: the logo printed on the DANFE (lib/issuer/logo.ts checks it; 256 KB at most).
    name: '100_issuer_logo',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('issuers', (t) => {
        t.binary('logo');
        t.string('logo_mime', 16);
      });
    },
  },
];
