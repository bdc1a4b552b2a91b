/**
 * The simulator's authorize_note function (SimulatorStore.authorizeNote): an authorization in one
 * round trip (issue 18). A function, not one plain statement: a statement's snapshot is taken
 * before its advisory lock is granted, so it would miss an inutilização committed by the lock's
 * previous holder; inside a VOLATILE function every query takes a fresh snapshot (READ COMMITTED),
 * so the checks after the lock see all it protected.
 *
 * The series lock (the key text of SimulatorStore.serialized) is what an inutilização of the
 * series takes exclusively. Migration 071 took it exclusively here too, so every note of a series
 * queued on it until the note before had committed, its WAL flush included (at peak, ~0.85 ms of
 * each call's ~1 ms). Since 075 an authorization takes it shared: an inutilização still waits for
 * the authorizations in flight and they for it, while two authorizations of one number or one key
 * are settled by the unique indexes of `notes` (the second waits for the first's commit, inserts
 * nothing, and names the note that holds it: 539 or 204).
 */
export function authorizeNoteFunction(schema: string, seriesLock: 'exclusive' | 'shared'): string {
  // The schema is written into the function's body (and a string literal): a plain identifier only.
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unexpected schema name ${schema}`);
  const t = (name: string) => `${schema}.${name}`;
  const lock = seriesLock === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  return `
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
          perform ${lock}(hashtext(p_lock_key));
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
        $fn$`;
}
