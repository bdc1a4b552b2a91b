import type { Knex } from 'knex';
import { runStatement } from '../../shared/pg-statement.js';
import type { SequenceFormat } from '../../../lib/sefaz/simulator/responses.js';

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

/** Where authorizeNote's caller puts the protocol number in the protNFe it passes. */
export const N_PROT = '{nProt}';

/** The note of an authorization; receipt, protocol, status and prot_xml come from the call. */
export type NoteFields = Omit<NoteRow, 'status' | 'protocol' | 'receipt' | 'prot_xml'>;

export interface NoteAuthorization {
  note: NoteFields;
  /** The batch's receipt, or how to format the one the statement draws. */
  receipt: string | SequenceFormat;
  /** The note's protocol, or how to format the one the statement draws (after the receipt). */
  protocol: string | SequenceFormat;
  /** The protNFe to store and answer, with N_PROT where its nProt goes. */
  prot: string;
  /** An asynchronous batch of this one note: the receipts row, written with the note. */
  saveReceipt?: { c_uf: string; tp_amb: number };
}

/** The note's fate, with the numbers drawn for it and its protNFe as stored when inserted. */
export interface AuthorizationOutcome {
  outcome: 'inserted' | 'inutilizado' | 'same-key' | 'same-number';
  receipt: string;
  protocol: string;
  prot: string;
  /** The note holding the key or the number (same-key, same-number). */
  existing: { accessKey: string; receipt: string } | null;
}

export interface SeriesKey {
  cnpj: string;
  model: string;
  serie: number;
  tp_amb: number;
}

/** authorize_note's arguments (migrations/simulator/authorize-note-function.ts), and their placeholders typed as its parameters. */
const AUTHORIZE_NOTE_ARGS = ['lock_key', 'receipt', 'receipt_prefix', 'receipt_digits', 'protocol', 'protocol_prefix', 'protocol_digits', 'prot_head', 'prot_tail',
  'access_key', 'cnpj', 'model', 'serie', 'numero', 'tp_amb', 'c_uf', 'authorized_at', 'dh_emi', 'receipt_c_uf', 'receipt_tp_amb'];
const AUTHORIZE_NOTE_PARAMS = '?::text, ?::text, ?::text, ?::int, ?::text, ?::text, ?::int, ?::text, ?::text, ?::text, ?::text, ?::text, ?::int, ?::int, ?::smallint, ?::text, ?::timestamptz, ?::timestamptz, ?::text, ?::smallint';
/** Up to this many notes a grouped statement is prepared (its text has one shape per count). */
const PREPARED_UP_TO = 4;

/** One authorization as authorize_note's bindings, and how its answer row reads. */
function noteCall(a: NoteAuthorization): { bindings: Knex.Value[]; outcome: (row: any) => AuthorizationOutcome } {
  const [head, tail, ...rest] = a.prot.split(N_PROT);
  if (head === undefined || tail === undefined || rest.length) throw new Error('authorizeNote: the protNFe must hold the nProt mark once');
  const seq = (n: string | SequenceFormat) => (typeof n === 'string' ? [n, null, null] : [null, n.prefix, n.digits]);
  const n = a.note;
  return {
    bindings: [seriesLockKey(n), ...seq(a.receipt), ...seq(a.protocol), head, tail, n.access_key, n.cnpj, n.model, n.serie, n.numero, n.tp_amb, n.c_uf,
      n.authorized_at, n.dh_emi, a.saveReceipt?.c_uf ?? null, a.saveReceipt?.tp_amb ?? null] as Knex.Value[],
    outcome: (row: { outcome: AuthorizationOutcome['outcome']; receipt: string; protocol: string; existing_key: string | null; existing_receipt: string | null }) => ({
      outcome: row.outcome, receipt: row.receipt, protocol: row.protocol, prot: `${head}${row.protocol}${tail}`,
      existing: row.existing_key && row.existing_receipt ? { accessKey: row.existing_key, receipt: row.existing_receipt } : null,
    }),
  };
}

/** The advisory lock's key of a series (SimulatorStore.serialized and the authorize_note function). */
const seriesLockKey = (s: SeriesKey) => `simulator-series:${s.cnpj}:${s.model}:${s.serie}:${s.tp_amb}`;

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
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [seriesLockKey(series)]);
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

  /**
   * An authorized note, in ONE statement (issue 18): under the series lock of `serialized` (taken
   * shared: authorizations of a series do not wait for one another, an inutilização waits), draws the
   * receipt and the protocol when they are not given (formatted as `R.formatSequence` does), refuses
   * a number an inutilização covers, and inserts the note (and, for an asynchronous batch, its
   * receipt) unless its key or number is already there, then names the note that holds it.
   * Implemented by a function (migrations/simulator/authorize-note-function.ts): its queries run
   * after the lock with fresh snapshots, which a single plain statement could not do.
   */
  async authorizeNote(a: NoteAuthorization): Promise<AuthorizationOutcome> {
    const note = noteCall(a);
    // The simulator's one statement per note: prepared, without knex's runner (services/shared/pg-statement.ts).
    const r = await runStatement(this.knex, `select * from ${this.t('authorize_note')}(${AUTHORIZE_NOTE_PARAMS})`, note.bindings, { prepare: true });
    return note.outcome(r.rows[0]);
  }

  /**
   * Several authorizations in ONE statement and one commit (note-authorizations.ts groups the ones
   * that arrive while others are being written): authorize_note called for each, in order, in one
   * transaction, so each sees the ones before it (two notes of one number: the second is 539).
   * Answers one outcome per authorization, in order; a failure fails them all (nothing stays).
   */
  async authorizeNotes(all: readonly NoteAuthorization[]): Promise<AuthorizationOutcome[]> {
    if (all.length === 1) return [await this.authorizeNote(all[0]!)];
    const calls = all.map(noteCall);
    const values = all.map((_, i) => `(${i}, ${AUTHORIZE_NOTE_PARAMS})`).join(', ');
    const r = await runStatement(this.knex,
      `select v.i, r.* from (values ${values}) as v (i, ${AUTHORIZE_NOTE_ARGS.join(', ')})
       cross join lateral ${this.t('authorize_note')}(${AUTHORIZE_NOTE_ARGS.map((a) => `v.${a}`).join(', ')}) r order by v.i`,
      calls.flatMap((c) => c.bindings), { prepare: all.length <= PREPARED_UP_TO });
    if (r.rows.length !== all.length) throw new Error(`authorizeNotes: ${r.rows.length} outcomes for ${all.length} notes`);
    return r.rows.map((row: { i: number }) => calls[row.i]!.outcome(row));
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
