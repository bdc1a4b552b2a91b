import type { Migration } from '../../services/shared/migrations.js';

/** Tables of the authority simulator (schema `simulator`): what "the authority" has received. */
export const migrations: Migration[] = [
  {
    name: '001_simulator_base',
    async up(knex, schema) {
      await knex.raw(`create sequence if not exists ??.protocol_seq`, [schema]);
      await knex.schema.withSchema(schema).createTable('notes', (t) => {
        t.string('access_key', 44).primary();
        t.string('cnpj', 14).notNullable();
        t.string('model', 2).notNullable();
        t.integer('serie').notNullable();
        t.integer('numero').notNullable();
        t.smallint('tp_amb').notNullable();
        t.string('c_uf', 2).notNullable();
        t.string('status', 16).notNullable(); // authorized | canceled
        t.string('protocol', 15).notNullable();
        t.string('receipt', 15).notNullable();
        t.timestamp('authorized_at', { useTz: true }).notNullable();
        t.text('prot_xml').notNullable();
        t.unique(['cnpj', 'model', 'serie', 'numero', 'tp_amb']);
      });
      await knex.schema.withSchema(schema).createTable('receipts', (t) => {
        t.string('receipt', 15).primary();
        t.string('c_uf', 2).notNullable();
        t.smallint('tp_amb').notNullable();
        t.text('prot_xml').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
      });
      await knex.schema.withSchema(schema).createTable('events', (t) => {
        t.bigIncrements('id').primary();
        t.string('access_key', 44).notNullable();
        t.string('tp_evento', 6).notNullable();
        t.integer('n_seq').notNullable();
        t.string('protocol', 15).notNullable();
        t.timestamp('registered_at', { useTz: true }).notNullable();
        t.unique(['access_key', 'tp_evento', 'n_seq']);
      });
      await knex.schema.withSchema(schema).createTable('inutilizacoes', (t) => {
        t.bigIncrements('id').primary();
        t.string('cnpj', 14).notNullable();
        t.string('model', 2).notNullable();
        t.integer('serie').notNullable();
        t.integer('inicio').notNullable();
        t.integer('fim').notNullable();
        t.smallint('tp_amb').notNullable();
        t.string('protocol', 15).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['cnpj', 'model', 'serie']);
      });
    },
  },
  {
    // The authority lists the registered events of a key in retConsSitNFe (procEventoNFe, ER11):
    // keep each one as it was answered.
    name: '002_events_proc_xml',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('events', (t) => {
        t.text('proc_xml');
      });
    },
  },
  {
    // Rule 577 (an event dated before the note's emission) needs dhEmi; null for notes received
    // before this column existed (the rule then does not apply to them).
    name: '060_notes_dh_emi',
    async up(knex, schema) {
      await knex.schema.withSchema(schema).alterTable('notes', (t) => {
        t.timestamp('dh_emi', { useTz: true });
      });
    },
  },
  {
    // Sefin Nacional (NFS-e): the NFS-e generated per DPS (idDps unique per environment: Sefin's
    // E0014 key is série + número + município emissor + CNPJ/CPF, exactly what idDps concatenates),
    // the registered events, and the nNFSe sequence per issuer and environment.
    name: '070_sefin',
    async up(knex, schema) {
      await knex.raw(`create sequence if not exists ??.sefin_ndfse_seq`, [schema]);
      await knex.schema.withSchema(schema).createTable('sefin_nfse', (t) => {
        t.string('chave_acesso', 50).primary();
        t.string('id_dps', 45).notNullable();
        t.smallint('tp_amb').notNullable();
        t.string('cnpj_cpf', 14).notNullable();
        t.bigInteger('n_nfse').notNullable();
        t.string('status', 16).notNullable(); // gerada | cancelada
        t.timestamp('processed_at', { useTz: true }).notNullable();
        t.text('nfse_xml').notNullable();
        t.unique(['id_dps', 'tp_amb']);
      });
      await knex.schema.withSchema(schema).createTable('sefin_numbers', (t) => {
        t.string('cnpj_cpf', 14).notNullable();
        t.smallint('tp_amb').notNullable();
        t.bigInteger('last').notNullable();
        t.primary(['cnpj_cpf', 'tp_amb']);
      });
      await knex.schema.withSchema(schema).createTable('sefin_events', (t) => {
        t.bigIncrements('id').primary();
        t.string('chave_acesso', 50).notNullable();
        t.string('tipo_evento', 6).notNullable();
        t.smallint('n_seq').notNullable();
        t.timestamp('processed_at', { useTz: true }).notNullable();
        t.text('evento_xml').notNullable();
        t.unique(['chave_acesso', 'tipo_evento', 'n_seq']);
      });
    },
  },
];
