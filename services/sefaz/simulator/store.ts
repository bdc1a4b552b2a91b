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

  /** Inserts an authorized note; false when the key or the number is already there (unique). */
  async insertNote(row: NoteRow): Promise<boolean> {
    try {
      await this.knex(this.t('notes')).insert(row);
      return true;
    } catch (err: any) {
      if (err?.code === UNIQUE_VIOLATION) return false;
      throw err;
    }
  }

  async isInutilizado(n: { cnpj: string; model: string; serie: number; numero: number; tp_amb: number }): Promise<boolean> {
    const row = await this.knex(this.t('inutilizacoes'))
      .where({ cnpj: n.cnpj, model: n.model, serie: n.serie, tp_amb: n.tp_amb })
      .andWhere('inicio', '<=', n.numero).andWhere('fim', '>=', n.numero).first();
    return !!row;
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
