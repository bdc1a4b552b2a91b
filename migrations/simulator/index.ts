import type { Migration } from '../../services/shared/migrations.js';
import { compressWithLz4 } from '../../services/shared/toast-compression.js';

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
    // Issue 18: an authorization in one round trip (SimulatorStore.authorizeNote). A function, not one
    // plain statement: a statement's snapshot is taken before its advisory lock is granted, so it would
    // miss an inutilização committed by the lock's previous holder; inside a VOLATILE function every
    // query takes a fresh snapshot (READ COMMITTED), so the checks after the lock see all it protected.
    name: '071_authorize_note_function',
    async up(knex, schema) {
      // The schema is written into the function's body (and a string literal): a plain identifier only.
      if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unexpected schema name ${schema}`);
      const t = (name: string) => `${schema}.${name}`;
      await knex.raw(`
        create or replace function ${t('authorize_note')}(
          p_lock_key text,
          p_receipt text, p_receipt_prefix text, p_receipt_digits integer,
          p_protocol text, p_protocol_prefix text, p_protocol_digits integer,
          p_prot_head text, p_prot_tail text,
          p_access_key text, p_cnpj text, p_model text, p_serie integer, p_numero integer, p_tp_amb smallint,
          p_c_uf text, p_authorized_at timestamptz, p_dh_emi timestamptz,
          p_receipt_c_uf text, p_receipt_tp_amb smallint)
        returns table (outcome text, receipt text, protocol text, existing_key text, existing_receipt text)
        language plpgsql volatile as $fn$
        declare
          v_receipt text := p_receipt;
          v_protocol text := p_protocol;
          v_seq text;
          v_key text;
          v_rec text;
        begin
          -- The series lock of SimulatorStore.serialized (same key text), held until the caller's
          -- statement ends; the sequence values are drawn under it, receipt first.
          perform pg_advisory_xact_lock(hashtext(p_lock_key));
          if v_receipt is null then
            v_seq := nextval('${t('protocol_seq')}')::text;
            v_receipt := p_receipt_prefix || lpad(v_seq, greatest(p_receipt_digits, length(v_seq)), '0');
          end if;
          if v_protocol is null then
            v_seq := nextval('${t('protocol_seq')}')::text;
            v_protocol := p_protocol_prefix || lpad(v_seq, greatest(p_protocol_digits, length(v_seq)), '0');
          end if;
          if exists (select 1 from ${t('inutilizacoes')} i where i.cnpj = p_cnpj and i.model = p_model and i.serie = p_serie
                     and i.tp_amb = p_tp_amb and i.inicio <= p_numero and i.fim >= p_numero) then
            return query select 'inutilizado'::text, v_receipt, v_protocol, null::text, null::text;
            return;
          end if;
          insert into ${t('notes')} (access_key, cnpj, model, serie, numero, tp_amb, c_uf, status, protocol, receipt, authorized_at, dh_emi, prot_xml)
            values (p_access_key, p_cnpj, p_model, p_serie, p_numero, p_tp_amb, p_c_uf, 'authorized', v_protocol, v_receipt, p_authorized_at, p_dh_emi,
                    p_prot_head || v_protocol || p_prot_tail)
            on conflict do nothing;
          if found then
            -- An asynchronous batch of this one note: its receipt, answered by NFeRetAutorizacao4.
            if p_receipt_c_uf is not null then
              insert into ${t('receipts')} (receipt, c_uf, tp_amb, prot_xml, created_at)
                values (v_receipt, p_receipt_c_uf, p_receipt_tp_amb, p_prot_head || v_protocol || p_prot_tail, p_authorized_at);
            end if;
            return query select 'inserted'::text, v_receipt, v_protocol, null::text, null::text;
            return;
          end if;
          -- Duplicate (204 the same key, else 539 the same number): the row that holds it.
          select n.access_key, n.receipt into v_key, v_rec from ${t('notes')} n where n.access_key = p_access_key;
          if found then
            return query select 'same-key'::text, v_receipt, v_protocol, v_key, v_rec;
            return;
          end if;
          select n.access_key, n.receipt into v_key, v_rec from ${t('notes')} n
            where n.cnpj = p_cnpj and n.model = p_model and n.serie = p_serie and n.numero = p_numero and n.tp_amb = p_tp_amb;
          if found then
            return query select 'same-number'::text, v_receipt, v_protocol, v_key, v_rec;
            return;
          end if;
          raise exception 'authorize_note: a conflict without a matching note (%)', p_access_key;
        end
        $fn$`);
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
];
