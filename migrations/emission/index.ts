import type { Migration } from '../../services/shared/migrations.js';
import { outboxMigration } from '../../services/mixins/outbox.mixin.js';
import { DOCUMENT_STATUSES } from '../../lib/emission/state.js';
import { nfseMigration } from './nfse.js';

/** Tables of the emission service (schema `emission`). */
export const migrations: Migration[] = [
  outboxMigration,
  {
    name: '001_documents',
    async up(knex, schema) {
      // A fresh builder per statement: a SchemaBuilder accumulates and would re-run earlier ones.
      const s = () => knex.schema.withSchema(schema);
      await s().createTable('documents', (t) => {
        t.uuid('id').primary();
        t.string('partner_id', 64).notNullable();
        t.uuid('issuer_id').notNullable();
        t.string('model', 2).notNullable(); // '55' | '65'
        t.integer('series').notNullable();
        t.integer('number').notNullable();
        t.smallint('environment').notNullable(); // tpAmb: 1 produção, 2 homologação
        t.string('uf', 2).notNullable(); // issuer UF at emission: the authority that holds the key
        t.string('key_kind', 8).notNullable(); // live | test | jwt (callers without a key are billed as live)
        t.string('access_key', 44);
        t.string('cnf', 8);
        t.smallint('tp_emis').notNullable().defaultTo(1);
        t.timestamp('emitted_at', { useTz: true }).notNullable(); // dhEmi (key AAMM)
        t.enu('status', [...DOCUMENT_STATUSES]).notNullable(); // closed set: check constraint
        t.bigInteger('amount_cents').notNullable();
        t.string('protocol', 20);
        t.timestamp('authorized_at', { useTz: true });
        t.jsonb('request_body').notNullable();
        t.text('transmitted_xml');
        t.text('authorized_xml'); // nfeProc
        t.string('digest_value', 64);
        t.text('qr_code'); // NFC-e QR code text (printed receipt)
        t.jsonb('erros');
        t.text('motivo');
        t.string('idempotency_key', 255);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.timestamp('next_check_at', { useTz: true });
        t.integer('check_attempts').notNullable().defaultTo(0);
        t.integer('transmissions').notNullable().defaultTo(0);
        // Contingency (NFC-e offline, later issue): reason, printed justification, deadline.
        t.text('contingency_reason');
        t.text('contingency_justification');
        t.timestamp('contingency_deadline', { useTz: true });
        t.unique(['issuer_id', 'model', 'series', 'environment', 'number'], { indexName: 'documents_number_unique' });
        t.index(['partner_id', 'model', 'created_at', 'id'], 'documents_list_idx');
        t.index(['partner_id', 'idempotency_key'], 'documents_idempotency_idx');
      });
      // Reconciliation scans only open documents that are due.
      await knex.raw(`create index documents_due_idx on ??.documents (next_check_at) where next_check_at is not null`, [schema]);
      // Not unique: homologação and produção are separate authority databases, and the same
      // number in both may (rarely) draw the same cNF.
      await knex.raw(`create index documents_access_key_idx on ??.documents (access_key) where access_key is not null`, [schema]);

      // One row per numbering space; allocation locks it (SELECT … FOR UPDATE), so several nodes
      // hand out consecutive numbers without gaps (a rolled-back build releases the number).
      await s().createTable('number_sequences', (t) => {
        t.uuid('issuer_id').notNullable();
        t.string('model', 2).notNullable();
        t.integer('series').notNullable();
        t.smallint('environment').notNullable();
        t.integer('next_number').notNullable().defaultTo(1);
        t.primary(['issuer_id', 'model', 'series', 'environment']);
      });

      await s().createTable('document_history', (t) => {
        t.bigIncrements('id').primary();
        t.uuid('document_id').notNullable().references('id').inTable(`${schema}.documents`);
        t.string('from_status', 24);
        t.string('to_status', 24).notNullable();
        t.string('trigger', 40).notNullable();
        t.text('motivo');
        t.jsonb('detail');
        t.timestamp('at', { useTz: true }).notNullable();
        t.index(['document_id', 'id']);
      });

      // API.md: test-key emissions are not billed; counted apart so usage can still be shown.
      await s().createTable('billing_counters', (t) => {
        t.string('partner_id', 64).notNullable();
        t.string('period', 7).notNullable(); // AAAA-MM
        t.string('model', 2).notNullable();
        t.smallint('environment').notNullable();
        t.string('key_kind', 8).notNullable();
        t.boolean('billable').notNullable();
        t.integer('count').notNullable().defaultTo(0);
        t.primary(['partner_id', 'period', 'model', 'environment', 'key_kind']);
      });

      await s().createTable('batches', (t) => {
        t.uuid('id').primary();
        t.string('partner_id', 64).notNullable();
        t.string('model', 2).notNullable();
        t.string('key_kind', 8).notNullable();
        t.integer('total').notNullable();
        t.string('request_id', 128).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['partner_id', 'created_at']);
      });
      await s().createTable('batch_items', (t) => {
        t.uuid('id').primary();
        t.uuid('batch_id').notNullable().references('id').inTable(`${schema}.batches`);
        t.integer('index').notNullable();
        t.string('status', 12).notNullable(); // QUEUED | PROCESSING | COMPLETED | FAILED
        t.uuid('issuer_id');
        t.jsonb('body').notNullable();
        t.uuid('document_id');
        t.jsonb('result_data');
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('enqueued_at', { useTz: true }).notNullable();
        t.timestamp('claimed_until', { useTz: true });
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.unique(['batch_id', 'index']);
        t.index(['status', 'enqueued_at']);
      });
    },
  },
  {
    // One transmission of a document in flight at a time (lib/emission/transmission.ts): the lease of
    // the attempt in flight; `transmissions` already numbers the attempts.
    name: '002_documents_transmission_lease',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('documents', (t) => {
        t.timestamp('transmitting_until', { useTz: true });
      });
      // A TRANSMITTING row written before this column may still have its call in flight on a node
      // running the previous version: give it the lease it would have had (2 minutes, fixed here).
      await knex.raw(`update ??.documents set transmitting_until = updated_at + interval '2 minutes' where status = 'TRANSMITTING'`, [schema]);
    },
  },
  {
    name: '003_documents_contingency_schedule',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('documents', (t) => {
        // NFC-e offline contingency (lib/emission/contingency.ts): the scheduler's next try and how
        // many it made, and when invoice.contingency.expired was written (exactly once).
        t.timestamp('contingency_next_try_at', { useTz: true });
        t.integer('contingency_tries').notNullable().defaultTo(0);
        t.timestamp('contingency_expired_at', { useTz: true });
      });
      await knex.raw(`create index documents_contingency_due_idx on ??.documents (contingency_next_try_at) where status = 'CONTINGENCIA_PENDENTE'`, [schema]);
      await knex.raw(`create index documents_contingency_deadline_idx on ??.documents (contingency_deadline) where contingency_deadline is not null and contingency_expired_at is null`, [schema]);
    },
  },
  {
    // Events after authorization (cancellation 110111, CC-e 110110) and inutilização
    // (lib/emission/fiscal-events.ts, lib/emission/inutilizacao.ts), and the CANCELADA status.
    name: '004_fiscal_events_and_inutilizacao',
    async up(knex, schema) {
      // The status column is a closed set (check constraint of 001): widen it to the current union.
      const statuses = [...DOCUMENT_STATUSES].map((v) => `'${v}'`).join(', ');
      await knex.raw(`alter table ??.documents drop constraint if exists documents_status_check`, [schema]);
      await knex.raw(`alter table ??.documents add constraint documents_status_check check (status in (${statuses}))`, [schema]);
      const s = () => knex.schema.withSchema(schema);
      await s().createTable('document_events', (t) => {
        t.uuid('id').primary();
        t.uuid('document_id').notNullable().references('id').inTable(`${schema}.documents`);
        t.string('partner_id', 64).notNullable();
        t.string('type', 16).notNullable(); // cancelamento | carta-correcao
        t.string('tp_evento', 6).notNullable();
        t.integer('sequence').notNullable(); // nSeqEvento
        t.string('status', 12).notNullable(); // PENDING | REGISTERED | REJECTED
        t.text('text').notNullable(); // xJust or xCorrecao, as sent
        t.string('protocol', 20);
        t.integer('c_stat');
        t.text('x_motivo');
        t.timestamp('registered_at', { useTz: true });
        t.text('proc_xml'); // procEventoNFe
        t.timestamp('sending_until', { useTz: true });
        t.string('last_outcome', 8); // failed | unknown: the last send got no answer
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['document_id', 'created_at']);
      });
      // One registered (or pending) event per type and sequence; rejected attempts stay as history.
      await knex.raw(`create unique index document_events_sequence_unique on ??.document_events (document_id, tp_evento, sequence) where status <> 'REJECTED'`, [schema]);

      await s().createTable('inutilizacoes', (t) => {
        t.uuid('id').primary();
        t.string('partner_id', 64).notNullable();
        t.uuid('issuer_id').notNullable();
        t.string('model', 2).notNullable();
        t.integer('series').notNullable();
        t.smallint('environment').notNullable();
        t.integer('start_number').notNullable();
        t.integer('end_number').notNullable();
        t.text('justificativa').notNullable();
        t.string('status', 12).notNullable(); // PENDING | HOMOLOGATED | REJECTED
        t.string('protocol', 20);
        t.integer('c_stat');
        t.text('x_motivo');
        t.timestamp('homologated_at', { useTz: true });
        t.text('proc_xml'); // ProcInutNFe
        t.timestamp('sending_until', { useTz: true });
        t.string('last_outcome', 8);
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['issuer_id', 'model', 'series', 'environment', 'start_number'], 'inutilizacoes_space_idx');
        t.index(['partner_id', 'model', 'created_at'], 'inutilizacoes_list_idx');
      });
    },
  },
  nfseMigration,
];
