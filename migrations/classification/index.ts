import type { Migration } from '../../services/shared/migrations.js';
import { defaultTable } from '../../services/classification/default-tables.js';
import type { ClassTable } from '../../lib/classification/types.js';

/** Tables of the classification service (schema `classification`). */
export const migrations: Migration[] = [
  {
    name: '001_approximate_tax_tables',
    async up(knex, schema) {
      // One row per imported version of a UF's approximate-tax table (Lei 12.741): what the
      // operator loaded, when, and its validity; versions coexist so the next one can be loaded
      // before it comes into force.
      await knex.schema.withSchema(schema).createTable('approximate_tax_tables', (t) => {
        t.string('uf', 2).notNullable();
        t.string('versao', 20).notNullable();
        t.string('fonte', 100).notNullable();
        t.string('chave', 40).notNullable();
        t.date('vigencia_inicio').notNullable();
        t.date('vigencia_fim').notNullable();
        t.integer('linhas').notNullable();
        t.integer('ignoradas').notNullable();
        t.string('imported_by', 64);
        t.timestamp('imported_at', { useTz: true }).notNullable();
        t.primary(['uf', 'versao']);
      });
      // One row per NCM line of a version. Rates are percentages scaled by 10^4 (13.45 % = 134500):
      // integers, never floats.
      await knex.schema.withSchema(schema).createTable('approximate_tax_rates', (t) => {
        t.string('uf', 2).notNullable();
        t.string('versao', 20).notNullable();
        t.string('ncm', 8).notNullable();
        t.string('ex', 3).notNullable().defaultTo('');
        t.text('descricao').notNullable();
        t.integer('nacional_federal').notNullable();
        t.integer('importados_federal').notNullable();
        t.integer('estadual').notNullable();
        t.integer('municipal').notNullable();
        t.date('vigencia_inicio').notNullable();
        t.date('vigencia_fim').notNullable();
        t.string('chave', 40).notNullable();
        t.string('fonte', 100).notNullable();
        t.timestamp('imported_at', { useTz: true }).notNullable();
        t.primary(['uf', 'versao', 'ncm', 'ex']);
        // The emission lookup: newest line of the UF that started on or before the day, per NCM.
        t.index(['uf', 'ncm', 'vigencia_inicio'], 'approximate_tax_rates_lookup');
      });
    },
  },
  {
    name: '040_product_classes',
    async up(knex, schema) {
      // One row per loaded version of the assisted-taxation tables (cClassTrib, CST, LC 214 annex
      // NCM lists, IBS/CBS rates per year), kept whole as loaded; the newest load is the one in use.
      await knex.schema.withSchema(schema).createTable('class_table_versions', (t) => {
        t.string('versao', 40).primary();
        t.jsonb('content').notNullable();
        t.integer('classes').notNullable();
        t.integer('anexos').notNullable();
        t.string('loaded_by', 64);
        t.timestamp('loaded_at', { useTz: true }).notNullable();
        t.index(['loaded_at'], 'class_table_versions_loaded_at');
      });
      // The product class memory (API.md, Rules on the product class memory), per issuer and item code.
      await knex.schema.withSchema(schema).createTable('product_classes', (t) => {
        t.string('issuer_id', 64).notNullable();
        t.string('codigo', 60).notNullable();
        t.string('ncm', 8).notNullable();
        t.string('c_class_trib', 6);
        t.string('origem', 12).notNullable();
        t.string('motivo', 24);
        t.string('c_class_trib_anterior', 6);
        t.timestamp('deslocou_em', { useTz: true });
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.primary(['issuer_id', 'codigo']);
      });
      await knex.raw(`create index product_classes_pending on ??.product_classes (issuer_id, codigo) where origem = 'pendente' or motivo = 'deslocou_confirmada'`, [schema]);
      // Accepted-note events already applied to the memory: the outbox delivers at least once.
      await knex.schema.withSchema(schema).createTable('product_class_events', (t) => {
        t.uuid('event_id').primary();
        t.timestamp('applied_at', { useTz: true }).notNullable();
      });
    },
  },
  {
    // The cClassTrib table's ind_g* group flags (ClassTrib.grupos) were not read before: stored
    // versions lack them and would let a class that demands gCredPresOper, gTribRegular… through.
    // The originals were not kept, so each class takes the flags of the same code in the shipped
    // publication (flags are fixed per code in it); a code it lacks gets none, and the operator's
    // next load of that version reads them from the file.
    name: '061_class_group_flags',
    async up(knex, schema) {
      const shipped = new Map(defaultTable().classes.map((c) => [c.cClassTrib, c.grupos]));
      const rows = await knex(`${schema}.class_table_versions`).select('versao', 'content');
      for (const row of rows) {
        const content = (typeof row.content === 'string' ? JSON.parse(row.content) : row.content) as ClassTable;
        if (content.classes.every((c) => Array.isArray(c.grupos))) continue;
        const classes = content.classes.map((c) => (Array.isArray(c.grupos) ? c : { ...c, grupos: shipped.get(c.cClassTrib) ?? [] }));
        await knex(`${schema}.class_table_versions`).where({ versao: row.versao }).update({ content: JSON.stringify({ ...content, classes }) });
      }
    },
  },
];
