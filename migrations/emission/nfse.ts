import type { Migration } from '../../services/shared/migrations.js';
import { NFSE_STATUSES } from '../../lib/emission/nfse/state.js';

/**
 * NFS-e tables of the emission service (issue 16): their own numbering space (nDPS per issuer,
 * série and environment), documents, history, the adherence of municipalities to the national
 * standard as Sefin answered it (rule 9), and events (e101101 cancellation).
 */
export const nfseMigration: Migration = {
  name: '030_nfse',
  async up(knex, schema) {
    const s = () => knex.schema.withSchema(schema);
    // One row per numbering space, locked FOR UPDATE by the allocation: consecutive nDPS across nodes.
    await s().createTable('nfse_sequences', (t) => {
      t.uuid('issuer_id').notNullable();
      t.integer('serie').notNullable();
      t.smallint('environment').notNullable();
      t.bigInteger('next_number').notNullable();
      t.primary(['issuer_id', 'serie', 'environment']);
    });
    await s().createTable('nfse_documents', (t) => {
      t.uuid('id').primary();
      t.string('partner_id', 64).notNullable();
      t.uuid('issuer_id').notNullable();
      t.integer('serie').notNullable();
      t.bigInteger('n_dps').notNullable();
      t.smallint('environment').notNullable();
      t.string('key_kind', 8).notNullable();
      t.string('id_dps', 45).notNullable();
      t.string('codigo_municipio', 7).notNullable();
      t.timestamp('emitted_at', { useTz: true }).notNullable();
      t.enu('status', [...NFSE_STATUSES]).notNullable();
      t.bigInteger('amount_cents').notNullable();
      t.string('chave_acesso', 50);
      t.string('numero_nfse', 15);
      t.timestamp('authorized_at', { useTz: true });
      t.timestamp('canceled_at', { useTz: true });
      t.jsonb('request_body').notNullable();
      t.text('dps_xml').notNullable();
      t.text('nfse_xml');
      t.jsonb('erros');
      t.jsonb('avisos').notNullable();
      t.jsonb('alertas').notNullable();
      t.text('motivo');
      t.string('idempotency_key', 255);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.timestamp('next_check_at', { useTz: true });
      t.integer('check_attempts').notNullable().defaultTo(0);
      t.integer('transmissions').notNullable().defaultTo(0);
      t.timestamp('transmitting_until', { useTz: true });
      t.unique(['issuer_id', 'serie', 'environment', 'n_dps'], { indexName: 'nfse_documents_number_unique' });
      t.index(['partner_id', 'created_at', 'id'], 'nfse_documents_list_idx');
    });
    await knex.raw('create index nfse_documents_due_idx on ??.nfse_documents (next_check_at) where next_check_at is not null', [schema]);
    await s().createTable('nfse_history', (t) => {
      t.bigIncrements('id');
      t.uuid('document_id').notNullable().index();
      t.string('from_status', 16);
      t.string('to_status', 16).notNullable();
      t.string('trigger', 64).notNullable();
      t.text('motivo');
      t.jsonb('detail');
      t.timestamp('at', { useTz: true }).notNullable();
    });
    // What Sefin said about a municipality in an environment; absent = desconhecido (never refuses).
    await s().createTable('nfse_municipalities', (t) => {
      t.string('codigo_municipio', 7).notNullable();
      t.smallint('environment').notNullable();
      t.string('adesao', 16).notNullable(); // aderente | nao_aderente
      t.text('mensagem');
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['codigo_municipio', 'environment']);
    });
    // Billing counts NFS-e under model 'NFSe' (API.md, Events: model is 55, 65 or NFSe).
    await knex.raw('alter table ??.billing_counters alter column model type varchar(4)', [schema]);
    await s().createTable('nfse_events', (t) => {
      t.uuid('id').primary();
      t.uuid('document_id').notNullable().index();
      t.string('tipo', 16).notNullable(); // e101101 cancelamento
      t.string('status', 12).notNullable(); // PENDING | REGISTERED | REJECTED
      t.string('codigo_motivo', 1).notNullable();
      t.text('justificativa').notNullable();
      t.text('request_xml').notNullable();
      t.text('event_xml');
      t.jsonb('erros');
      t.timestamp('registered_at', { useTz: true });
      // Lease of the send in flight: a repeated request meanwhile answers 409, never a second send.
      t.timestamp('sending_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};

/**
 * Issue 16 audit: an NFS-e's Idempotency-Key is bound to its DPS in the numbering transaction, once
 * per partner (the NF-e design of migration 010): a retry after a 5xx, a crash or a timeout finds
 * the DPS and never numbers another. Keys already used twice stay on their first DPS; the later
 * ones are detached with a history line, so the unique index can exist.
 */
export const nfseIdempotencyMigration: Migration = {
  name: '061_nfse_idempotency_key_binding',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('nfse_documents', (t) => {
      t.string('idempotency_fingerprint', 64); // lib/idempotency/fingerprint.ts bodyFingerprint
    });
    await knex.raw(`
      with ranked as (
        select id, status, idempotency_key,
               row_number() over (partition by partner_id, idempotency_key order by created_at, id) as n
        from ??.nfse_documents where idempotency_key is not null
      ), detached as (
        update ??.nfse_documents d set idempotency_key = null from ranked r where d.id = r.id and r.n > 1
        returning d.id, r.status, r.idempotency_key
      )
      insert into ??.nfse_history (document_id, from_status, to_status, trigger, motivo, detail, at)
      select id, status, status, 'migration:061', 'Idempotency-Key já vinculada a uma DPS anterior; desvinculada desta.',
             jsonb_build_object('idempotencyKey', idempotency_key), now()
      from detached`, [schema, schema, schema]);
    await knex.raw(`create unique index nfse_documents_idempotency_unique on ??.nfse_documents (partner_id, idempotency_key) where idempotency_key is not null`, [schema]);
  },
};

/**
 * Issue 16 audit: a cancellation whose answer was lost (`unknown`) is settled by a consult of the
 * NFS-e at Sefin: the repeat request consults first, and the reconciliation round consults the
 * pending ones on their own schedule (services/emission/nfse/cancel.ts).
 */
export const nfseEventReconciliationMigration: Migration = {
  name: '061_nfse_event_reconciliation',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('nfse_events', (t) => {
      t.string('last_outcome', 8); // failed | unknown: how the last send ended without an answer
      t.timestamp('next_check_at', { useTz: true });
      t.integer('check_attempts').notNullable().defaultTo(0);
    });
    await knex.raw(`create index nfse_events_due_idx on ??.nfse_events (next_check_at) where status = 'PENDING' and next_check_at is not null`, [schema]);
  },
};

/**
 * The NFS-e store did not set the partner's first-document flag (migration 050,
 * services/emission/partner-activity.ts) until now, so a partner that had emitted only NFS-e could
 * be deactivated (API.md, Resources > Partner). Partners with DPS get their flag here; a DPS older
 * than the document a flag already names becomes the first, so firstDocumentAt stays true.
 */
export const nfsePartnerFirstDocumentsMigration: Migration = {
  name: '063_nfse_partner_first_documents',
  async up(knex, schema) {
    await knex.raw(`insert into ??.partner_first_documents as f (partner_id, document_id, created_at)
        select distinct on (partner_id) partner_id, id, created_at from ??.nfse_documents order by partner_id, created_at, id
      on conflict (partner_id) do update set document_id = excluded.document_id, created_at = excluded.created_at
        where excluded.created_at < f.created_at`, [schema, schema]);
  },
};
