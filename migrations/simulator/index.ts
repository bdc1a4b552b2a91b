import type { Migration } from '../../services/shared/migrations.js';
import { compressWithLz4 } from '../../services/shared/toast-compression.js';
import { authorizeNoteFunction } from './authorize-note-function.js';

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
  {
    // Issue 18: an authorization in one round trip (SimulatorStore.authorizeNote; why a function:
    // authorize-note-function.ts), the series lock taken exclusively as it was then.
    name: '071_authorize_note_function',
    async up(knex, schema) {
      await knex.raw(authorizeNoteFunction(schema, 'exclusive'));
    },
  },
  {
    // Issue 18: a DPS in three round trips instead of seven (SefinStore.generateNfse). What can be done
    // before the NFS-e is built (the DPS's lock, the E0014 look-up, nNFSe and nDFSe) is one call, sent
    // with BEGIN; the insert follows in the same transaction, since the numbers sit inside the signed
    // XML. A function for the same reason as 071: its queries after the lock take a fresh snapshot, so
    // a DPS committed by the lock's previous holder is seen.
    name: '072_sefin_reserve_dps_function',
    async up(knex, schema) {
      if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unexpected schema name ${schema}`);
      const t = (name: string) => `${schema}.${name}`;
      await knex.raw(`
        create or replace function ${t('sefin_reserve_dps')}(p_id_dps text, p_tp_amb smallint, p_cnpj_cpf text)
        returns table (existing_chave text, n_nfse bigint, n_dfse bigint)
        language plpgsql volatile as $fn$
        declare
          v_chave text;
          v_n bigint;
        begin
          -- The DPS lock (key text as the simulator always wrote it), held until the caller's transaction ends.
          perform pg_advisory_xact_lock(hashtext('sefin-dps:' || p_id_dps || ':' || p_tp_amb));
          select f.chave_acesso into v_chave from ${t('sefin_nfse')} f where f.id_dps = p_id_dps and f.tp_amb = p_tp_amb;
          if found then
            return query select v_chave, null::bigint, null::bigint;
            return;
          end if;
          insert into ${t('sefin_numbers')} as s (cnpj_cpf, tp_amb, last) values (p_cnpj_cpf, p_tp_amb, 1)
            on conflict (cnpj_cpf, tp_amb) do update set last = s.last + 1 returning s.last into v_n;
          return query select null::text, v_n, nextval('${t('sefin_ndfse_seq')}');
        end
        $fn$`);
    },
  },
  {
    // Issue 18: the NFS-e and events Sefin generates compressed with lz4 where the server has it
    // (services/shared/toast-compression.ts); protNFe rows stay under the size Postgres compresses.
    name: '073_xml_lz4',
    async up(knex, schema) {
      await compressWithLz4(knex, schema, { sefin_nfse: ['nfse_xml'], sefin_events: ['evento_xml'], events: ['proc_xml'] });
    },
  },
  {
    // Issue 18: authorizations of one series no longer wait for one another (authorize-note-function.ts).
    name: '075_authorize_note_shared_series_lock',
    async up(knex, schema) {
      await knex.raw(authorizeNoteFunction(schema, 'shared'));
    },
  },
];
