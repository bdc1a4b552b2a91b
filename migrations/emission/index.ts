import type { Migration } from '../../services/shared/migrations.js';
import { outboxMigration } from '../../services/mixins/outbox.mixin.js';
import { compressWithLz4 } from '../../services/shared/toast-compression.js';
import { DOCUMENT_STATUSES } from '../../lib/emission/state.js';
import { claimForecastFunctions } from './claim-forecast-function.js';
import { nfseEventReconciliationMigration, nfseIdempotencyMigration, nfseMigration, nfsePartnerFirstDocumentsMigration } from './nfse.js';

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
  {
    // Issue 20: an Idempotency-Key is bound to its document in the numbering transaction, once per
    // partner and model; a batch to its POST the same way.
    name: '010_idempotency_key_binding',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('documents', (t) => {
        t.string('idempotency_fingerprint', 64); // lib/idempotency/fingerprint.ts bodyFingerprint
      });
      // Keys that emitted twice before this fix (the defect) stay on their first document; the later
      // ones are detached with a history line saying so, so the unique index can exist.
      await knex.raw(`
        with ranked as (
          select id, status, idempotency_key,
                 row_number() over (partition by partner_id, model, idempotency_key order by created_at, id) as n
          from ??.documents where idempotency_key is not null
        ), detached as (
          update ??.documents d set idempotency_key = null from ranked r where d.id = r.id and r.n > 1
          returning d.id, r.status, r.idempotency_key
        )
        insert into ??.document_history (document_id, from_status, to_status, trigger, motivo, detail, at)
        select id, status, status, 'migration:010', 'Idempotency-Key já vinculada a um documento anterior; desvinculada deste.',
               jsonb_build_object('idempotencyKey', idempotency_key), now()
        from detached`, [schema, schema, schema]);
      await knex.raw('drop index if exists ??', [`${schema}.documents_idempotency_idx`]);
      await knex.raw(`create unique index documents_idempotency_unique on ??.documents (partner_id, model, idempotency_key) where idempotency_key is not null`, [schema]);

      await knex.schema.withSchema(schema).alterTable('batches', (t) => {
        t.string('idempotency_key', 255);
        t.string('idempotency_fingerprint', 64);
      });
      await knex.raw(`create unique index batches_idempotency_unique on ??.batches (partner_id, idempotency_key) where idempotency_key is not null`, [schema]);
      },
    },
    {
    // Issue 20, defect 4: a late authority answer for a key the document no longer carries.
    name: '012_document_keys_and_contingency_holds',
    async up(knex, schema) {
      const s = () => knex.schema.withSchema(schema);
      // Every key a document held before its current one (re-keyed into NFC-e contingency), with
      // the signed XML sent under it: a 539 naming one of them is settled on it, and its nfeProc
      // is assembled from that XML (lib/emission/duplicate-key.ts).
      await s().createTable('document_keys', (t) => {
        t.uuid('document_id').notNullable().references('id').inTable(`${schema}.documents`);
        t.string('access_key', 44).notNullable();
        t.string('cnf', 8).notNullable();
        t.smallint('tp_emis').notNullable();
        t.text('signed_xml').notNullable();
        t.string('digest_value', 64);
        t.text('qr_code');
        t.string('released_by', 40).notNullable(); // contingency:rekey | contingency:held-rekey | adopted-previous-key
        t.timestamp('released_at', { useTz: true }).notNullable();
        t.primary(['document_id', 'access_key']);
      });
      // A re-key into contingency held back after an after-send unknown (lib/emission/contingency.ts
      // AUTHORITY_PROCESSING_WINDOW_MS): the tpEmis 9 note already built and signed at emission,
      // used only if a consult after `rekey_after` still finds the first key missing.
      await s().createTable('contingency_holds', (t) => {
        t.uuid('document_id').primary().references('id').inTable(`${schema}.documents`);
        t.integer('attempt').notNullable(); // the transmission whose send may still be processed
        t.timestamp('rekey_after', { useTz: true }).notNullable();
        t.string('access_key', 44).notNullable();
        t.string('cnf', 8).notNullable();
        t.text('signed_xml').notNullable();
        t.string('digest_value', 64);
        t.text('qr_code');
        t.text('justification').notNullable(); // xJust printed in it
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      },
    },
    {
    // issue 23, defect 5: the first-document flag, set in the emission's transaction
    // (services/emission/partner-activity.ts); partners that already emitted get theirs here.
    name: '050_partner_first_documents',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('partner_first_documents', (t) => {
        t.string('partner_id', 64).primary();
        t.uuid('document_id').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.raw(`insert into ??.partner_first_documents (partner_id, document_id, created_at)
        select distinct on (partner_id) partner_id, id, created_at from ??.documents order by partner_id, created_at, id`, [schema, schema]);
    },
  },
  {
    // issue 23, defect 3: numbering continues across the issuer rows of one CNPJ
    // (services/emission/fiscal-identity.ts). The CNPJ of existing rows comes from their access
    // keys (positions 7-20) or homologated inutilizações; sequences of a CNPJ registered again
    // move past the numbers its earlier rows used.
    name: '050_fiscal_identity_numbering',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).createTable('issuer_fiscal_identities', (t) => {
        t.uuid('issuer_id').notNullable();
        t.string('cnpj', 14).notNullable();
        t.primary(['issuer_id', 'cnpj']);
        t.index(['cnpj'], 'issuer_fiscal_identities_cnpj_idx');
      });
      await knex.raw(`insert into ??.issuer_fiscal_identities (issuer_id, cnpj)
        select distinct issuer_id, substr(access_key, 7, 14) from ??.documents where length(access_key) = 44
        on conflict do nothing`, [schema, schema]);
      // An issuer row that only inutilized numbers: its CNPJ is in the homologated ProcInutNFe.
      await knex.raw(`insert into ??.issuer_fiscal_identities (issuer_id, cnpj)
        select distinct issuer_id, substring(proc_xml from '<CNPJ>([0-9A-Z]{14})</CNPJ>') from ??.inutilizacoes
        where proc_xml ~ '<CNPJ>[0-9A-Z]{14}</CNPJ>'
        on conflict do nothing`, [schema, schema]);
      await knex.raw(`with used as (
          select i.cnpj, d.issuer_id, d.model, d.series, d.environment, max(d.number) + 1 as next
            from ??.documents d join ??.issuer_fiscal_identities i on i.issuer_id = d.issuer_id group by 1, 2, 3, 4, 5
          union all
          select i.cnpj, s.issuer_id, s.model, s.series, s.environment, s.next_number
            from ??.number_sequences s join ??.issuer_fiscal_identities i on i.issuer_id = s.issuer_id
          union all
          select i.cnpj, u.issuer_id, u.model, u.series, u.environment, max(u.end_number) + 1
            from ??.inutilizacoes u join ??.issuer_fiscal_identities i on i.issuer_id = u.issuer_id where u.status <> 'REJECTED' group by 1, 2, 3, 4, 5
        ), best as (select cnpj, model, series, environment, max(next) as next from used group by 1, 2, 3, 4)
        update ??.number_sequences s set next_number = b.next
          from ??.issuer_fiscal_identities i join best b on b.cnpj = i.cnpj
          where i.issuer_id = s.issuer_id and b.model = s.model and b.series = s.series and b.environment = s.environment and b.next > s.next_number`,
      [schema, schema, schema, schema, schema, schema, schema, schema]);
    },
  },
  nfseMigration,
  nfseIdempotencyMigration,
  nfseEventReconciliationMigration,
  {
    // issue 17: what assisted taxation resolved per item (tributacaoResolvida[] of the answer),
    // kept with the note so a retry under the same Idempotency-Key answers it too.
    name: '062_documents_tributacao_resolvida',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('documents', (t) => {
        t.jsonb('tributacao_resolvida');
      });
    },
  },
  nfsePartnerFirstDocumentsMigration,
  {
    // Issue 18: the documents' XML and requests compressed with lz4 where the server has it
    // (services/shared/toast-compression.ts).
    name: '064_xml_lz4',
    async up(knex, schema) {
      await compressWithLz4(knex, schema, {
        documents: ['request_body', 'transmitted_xml', 'authorized_xml'],
        document_keys: ['signed_xml'],
        contingency_holds: ['signed_xml'],
        document_events: ['proc_xml'],
        inutilizacoes: ['proc_xml'],
        nfse_documents: ['request_body', 'dps_xml', 'nfse_xml'],
        nfse_events: ['request_xml', 'event_xml'],
      });
    },
  },
  {
    // Issue 18: a billing counter in BILLING_SLOTS rows (services/emission/transition-sql.ts
    // billingSlot), so a partner's authorizations stop queuing on one row through each commit.
    // The rows counted so far are slot 0.
    name: '074_billing_counter_slots',
    async up(knex, schema) {
      await knex.raw(`alter table ??.billing_counters add column slot smallint not null default 0`, [schema]);
      await knex.raw(`alter table ??.billing_counters drop constraint billing_counters_pkey,
        add constraint billing_counters_pkey primary key (partner_id, period, model, environment, key_kind, slot)`, [schema]);
    },
  },
  {
    // Issue 18: a group of notes (or DPS) whose numbers the node foresaw is claimed and stored in
    // one statement (services/emission/group-claim.ts); the claim is one of these functions.
    name: '076_claim_forecast_functions',
    async up(knex, schema) {
      for (const statement of claimForecastFunctions(schema)) await knex.raw(statement);
    },
  },
];
