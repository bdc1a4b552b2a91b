import type { Knex } from 'knex';

/** The simulator's memory of what it received (schema `simulator`, migrations/simulator). */
export interface NoteRow {
  access_key: string;
  cnpj: string;
  model: string;
  serie: number;
  numero: number;
  tp_amb: number;
  c_uf: string;
  status: 'authorized' | 'canceled';
  protocol: string;
  receipt: string;
  authorized_at: Date;
  /** dhEmi of the note (rule 577); null for rows older than migration 060. */
  dh_emi: Date | null;
  prot_xml: string;
}

const UNIQUE_VIOLATION = '23505';

export interface SeriesKey {
  cnpj: string;
  model: string;
  serie: number;
  tp_amb: number;
}

export class SimulatorStore {
  constructor(private readonly knex: Knex, private readonly schema = 'simulator') {}

  /**
   * Runs `fn` in a transaction holding an advisory lock on one series (CNPJ, model, series,
   * environment), the way the authority serializes a series: an inutilização and an authorization
   * of a number inside its range, or two overlapping inutilizações, can then never both succeed,
   * even when several simulator nodes share the database.
   */
  serialized<T>(series: SeriesKey, fn: (store: SimulatorStore) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`simulator-series:${series.cnpj}:${series.model}:${series.serie}:${series.tp_amb}`]);
      return fn(new SimulatorStore(trx, this.schema));
    });
  }

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /** `count` numbers of the protocol/receipt sequence in one round trip (a batch's receipt and its notes' protocols). */
  async nextSequences(count: number): Promise<bigint[]> {
    const r = await this.knex.raw(`select nextval('${this.schema}.protocol_seq') as n from generate_series(1, ?)`, [count]);
    return r.rows.map((row: { n: string }) => BigInt(row.n));
  }

  async nextSequence(): Promise<bigint> {
    const r = await this.knex.raw(`select nextval('${this.schema}.protocol_seq') as n`);
    return BigInt(r.rows[0].n);
  }

  noteByKey(key: string): Promise<NoteRow | undefined> {
    return this.knex(this.t('notes')).where({ access_key: key }).first();
  }

  noteByNumber(n: { cnpj: string; model: string; serie: number; numero: number; tp_amb: number }): Promise<NoteRow | undefined> {
    return this.knex(this.t('notes')).where(n).first();
  }

  /**
   * Inserts an authorized note unless an inutilização covers its number (checked by the statement
   * itself: run it under `serialized`, after the series lock, so it sees every inutilização
   * committed before); 'duplicate' when the key or the number is already there.
   */
  async insertNoteUnlessInutilizado(row: NoteRow): Promise<'inserted' | 'inutilizado' | 'duplicate'> {
    // Parameters of a select have no column to take their type from: each is cast to its column's.
    const cast: Record<keyof NoteRow, string> = {
      access_key: 'text', cnpj: 'text', model: 'text', serie: 'integer', numero: 'integer', tp_amb: 'smallint', c_uf: 'text', status: 'text',
      protocol: 'text', receipt: 'text', authorized_at: 'timestamptz', dh_emi: 'timestamptz', prot_xml: 'text',
    };
    const cols = Object.keys(row) as (keyof NoteRow)[];
    try {
      const r = await this.knex.raw(
        `insert into ?? (${cols.map(() => '??').join(', ')}) select ${cols.map((c) => `?::${cast[c]}`).join(', ')}
         where not exists (select 1 from ?? where cnpj = ? and model = ? and serie = ? and tp_amb = ? and inicio <= ? and fim >= ?) returning access_key`,
        [this.t('notes'), ...cols, ...cols.map((c) => row[c] as Knex.Value), this.t('inutilizacoes'), row.cnpj, row.model, row.serie, row.tp_amb, row.numero, row.numero],
      );
      return r.rows.length ? 'inserted' : 'inutilizado';
    } catch (err: any) {
      if (err?.code === UNIQUE_VIOLATION) return 'duplicate';
      throw err;
    }
  }

  async saveReceipt(r: { receipt: string; c_uf: string; tp_amb: number; prot_xml: string; created_at: Date }): Promise<void> {
    await this.knex(this.t('receipts')).insert(r);
  }

  receipt(receipt: string): Promise<{ receipt: string; c_uf: string; tp_amb: number; prot_xml: string } | undefined> {
    return this.knex(this.t('receipts')).where({ receipt }).first();
  }

  /** The registered events of a key, oldest first, with their procEventoNFe. */
  async eventsOf(key: string): Promise<{ tp_evento: string; n_seq: number; proc_xml: string | null }[]> {
    return this.knex(this.t('events')).where({ access_key: key }).orderBy('id').select('tp_evento', 'n_seq', 'proc_xml');
  }

  async eventExists(key: string, tpEvento: string, nSeq: number): Promise<boolean> {
    return !!(await this.knex(this.t('events')).where({ access_key: key, tp_evento: tpEvento, n_seq: nSeq }).first('id'));
  }

  async insertEvent(e: { access_key: string; tp_evento: string; n_seq: number; protocol: string; registered_at: Date; proc_xml?: string }): Promise<boolean> {
    try {
      await this.knex(this.t('events')).insert(e);
      return true;
    } catch (err: any) {
      if (err?.code === UNIQUE_VIOLATION) return false;
      throw err;
    }
  }

  async cancelNote(key: string): Promise<void> {
    await this.knex(this.t('notes')).where({ access_key: key }).update({ status: 'canceled' });
  }

  async numbersUsed(r: { cnpj: string; model: string; serie: number; inicio: number; fim: number; tp_amb: number }): Promise<boolean> {
    const row = await this.knex(this.t('notes')).where({ cnpj: r.cnpj, model: r.model, serie: r.serie, tp_amb: r.tp_amb })
      .whereBetween('numero', [r.inicio, r.fim]).first();
    return !!row;
  }

  async rangeInutilizado(r: { cnpj: string; model: string; serie: number; inicio: number; fim: number; tp_amb: number }): Promise<boolean> {
    const row = await this.knex(this.t('inutilizacoes')).where({ cnpj: r.cnpj, model: r.model, serie: r.serie, tp_amb: r.tp_amb })
      .andWhere('inicio', '<=', r.fim).andWhere('fim', '>=', r.inicio).first();
    return !!row;
  }

  async insertInutilizacao(r: { cnpj: string; model: string; serie: number; inicio: number; fim: number; tp_amb: number; protocol: string; created_at: Date }): Promise<void> {
    await this.knex(this.t('inutilizacoes')).insert(r);
  }
}
