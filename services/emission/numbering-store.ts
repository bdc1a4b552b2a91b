import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import { DomainError } from '../../lib/errors/index.js';
import { checkNumberFree, skipReserved } from '../../lib/emission/inutilizacao.js';
import { firstDocumentCte } from './partner-activity.js';
import { checkNumberFreeForIdentity, ensureSequence, type SequenceKey } from './fiscal-identity.js';
import { prepared } from '../shared/prepared.js';
import { MAX_NUMBER, numberGroup, numberingGroup, type PendingNote } from './numbering-group.js';
import { togetherOrEach } from './group-claim.js';
import { NumberForecast } from './number-forecast.js';
import { statementsOf, supportsDirectTransactions, type DirectTx } from '../shared/direct-transaction.js';
import { createdRecord, createdRow } from './created-row.js';
import { HISTORY_COLUMNS } from './transition-sql.js';
import { bindingRefused, KeyAlreadyBound, PG_UNIQUE_VIOLATION, type AfterInsert, type NewDocument, type StoreDeps } from './document-row.js';

/** Locks a space's sequence row and advances it; the number it held (claimNext). */
const CLAIM_SQL = 'update ?? set next_number = next_number + 1 where issuer_id = ? and model = ? and series = ? and environment = ? returning next_number - 1 as number';

/**
 * A new document and its number: the series' sequence row locked, advanced and the document
 * inserted in one transaction, so numbers stay consecutive whatever fails (issue 18 counts what
 * runs under that lock). The document store (store.ts) hands its creations here.
 */
export class NumberingStore {
  /** The next numbers of the series this node numbers in groups (number-forecast.ts). */
  private readonly forecast = new NumberForecast();

  constructor(private readonly d: StoreDeps) {}

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  /**
   * Allocates the next number of the space and stores the document built with it, in one
   * transaction holding the sequence row lock: concurrent nodes queue on the lock, and a build that
   * throws rolls the number back, so numbers stay consecutive. Numbers already taken by a
   * passthrough `numero` are skipped.
   */
  async createNumbered(doc: Omit<NewDocument, 'cnf'>, build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>, next?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    const key = sequenceKey(doc);
    try {
      return await this.numbered(doc, key, build, next);
    } catch (err) {
      if (bindingRefused(err)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      throw err;
    }
  }

  /**
   * New notes of one series (`numberingGroup`) that will be transmitted at once, numbered as
   * createNumbered(…, 'transmit') numbers each, with one settled result per note in order. The
   * emission hands over the notes that queued together for the series' numbering
   * (services/shared/bulkhead.ts runGrouped): on Postgres they are numbered in one transaction
   * (numbering-group.ts, a group of one included, so the series' forecast follows every claim);
   * on PGlite, or when the group rolled back, each is numbered on its own, which answers every
   * unusual case for its own note.
   */
  async createNumberedGroup(notes: readonly PendingNote[]): Promise<Array<PromiseSettledResult<DocumentRecord>>> {
    const series = notes[0] && numberingGroup(notes[0].doc);
    if (notes.some((n) => numberingGroup(n.doc) !== series)) throw new Error('createNumberedGroup: notes of different series');
    const together = supportsDirectTransactions(this.d.knex)
      ? () => numberGroup(this.d.knex, this.d.schema, this.d.now(), sequenceKey(notes[0]!.doc), notes, this.forecast)
      : undefined;
    return togetherOrEach(notes, together, (note) => this.createNumbered(note.doc, note.build, 'transmit'));
  }

  /**
   * Issue 18: the sequence row is locked from the first statement to the commit, and every note
   * of the series queues on it, so what runs in between is counted in round trips: claim (lock +
   * advance, one statement), the build, the insert with its history and first-document flag, only
   * if the number is free (one), commit. A build that throws rolls the advance back with the rest.
   * New notes transmitted at once are numbered in groups (createNumberedGroup, BEGIN sent with the
   * claim); this general path runs when a group cannot (PGlite, a hook after the insert, a new
   * sequence, a number held by a passthrough note or an inutilização).
   */
  private async numbered(doc: Omit<NewDocument, 'cnf'>, key: SequenceKey, build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>, then?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    return this.d.knex.transaction(async (trx) => {
      let claimed = await this.claimNext(trx, key);
      if (claimed === undefined) {
        await ensureSequence(trx, this.d.schema, key, doc.cnpj);
        claimed = await this.claimNext(trx, key);
        if (claimed === undefined) throw new Error(`number sequence ${JSON.stringify(key)} missing after ensureSequence`);
      }
      const exhausted = () => new DomainError('UNPROCESSABLE_ENTITY', { serie: doc.series }, 'Numeração da série esgotada; use outra série.');
      if (claimed > MAX_NUMBER) throw exhausted();
      // The usual case: the claimed number is free. The insert checks it itself (it runs after the
      // lock was taken, so it sees every document and inutilização committed before).
      const first = await build(claimed);
      const stored = await this.writeCreated(statementsOf(trx), { ...doc, cnf: first.cnf }, claimed, first.built, then === 'transmit', key);
      if (stored) return typeof then === 'function' ? then(trx, stored) : stored;
      // Rare: a passthrough number or an inutilização holds it; skip ahead and build again.
      const number = await this.firstFree(trx, key, claimed);
      if (number > MAX_NUMBER) throw exhausted();
      await trx(this.t('number_sequences')).where(key).update({ next_number: number + 1 });
      const { built, cnf } = await build(number);
      return this.insertCreated(trx, { ...doc, cnf }, number, built, then);
    });
  }

  /**
   * Locks the space's sequence row and advances it in one statement; the number it held, or
   * undefined when the space has no row yet. The same lock as SELECT … FOR UPDATE (an UPDATE takes
   * the row's exclusive lock), held to the commit.
   */
  private async claimNext(trx: Knex.Transaction, key: SequenceKey): Promise<number | undefined> {
    const { rows } = await prepared(trx.raw(CLAIM_SQL, [this.t('number_sequences'), key.issuer_id, key.model, key.series, key.environment]));
    return rows[0] ? Number(rows[0].number) : undefined;
  }

  /**
   * The first number at or after `from` held by no document and by no inutilização that holds its
   * numbers (lib/emission/inutilizacao.ts), read under the sequence row lock. One statement in the
   * usual case (`from` free); each statement runs after the lock was taken, so it sees every
   * document committed before (READ COMMITTED takes a snapshot per statement: this check must not
   * share the claiming statement, whose snapshot predates its wait for the lock).
   */
  private async firstFree(trx: Knex.Transaction, key: SequenceKey, from: number): Promise<number> {
    const where = 'issuer_id = ? and model = ? and series = ? and environment = ?';
    const k = [key.issuer_id, key.model, key.series, key.environment];
    const { rows } = await trx.raw(
      `select exists(select 1 from ?? where ${where} and number = ?) as taken,
        (select coalesce(json_agg(json_build_object('start', start_number, 'end', end_number, 'status', status)), '[]'::json)
          from ?? where ${where} and status <> 'REJECTED' and end_number >= ?) as ranges`,
      [this.t('documents'), ...k, from, this.t('inutilizacoes'), ...k, from],
    );
    const raw = typeof rows[0].ranges === 'string' ? JSON.parse(rows[0].ranges) : rows[0].ranges;
    const ranges = (raw as any[]).map((r) => ({ start: Number(r.start), end: Number(r.end), status: r.status }));
    let number = skipReserved(from, ranges);
    if (number === from && !rows[0].taken) return number;
    while (await trx(this.t('documents')).where({ ...key, number }).first('id')) number = skipReserved(number + 1, ranges);
    return number;
  }

  /**
   * Stores a document under the integrator's own `numero`; a number taken meanwhile is 409, one in
   * an inutilização range 409 NUMERO_INUTILIZADO. The sequence row is held FOR SHARE: passthrough
   * numbers do not wait for each other, but an inutilização claim (FOR UPDATE) and this check
   * never interleave.
   */
  async createWithNumber(doc: NewDocument, number: number, built: BuiltDocument, then?: AfterInsert): Promise<DocumentRecord> {
    const key = sequenceKey(doc);
    try {
      return await this.d.knex.transaction(async (trx) => {
        await ensureSequence(trx, this.d.schema, key, doc.cnpj);
        await trx(this.t('number_sequences')).where(key).forShare().first('next_number');
        await checkNumberFreeForIdentity(trx, this.d.schema, key, doc.cnpj, number);
        const ranges = await trx(this.t('inutilizacoes')).where(key).where('start_number', '<=', number).where('end_number', '>=', number).select('id', 'start_number', 'end_number', 'status');
        checkNumberFree(number, doc.series, ranges.map((r: any) => ({ id: r.id, start: Number(r.start_number), end: Number(r.end_number), status: r.status })));
        return this.insertCreated(trx, doc, number, built, then);
      });
    } catch (err: any) {
      if (bindingRefused(err)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      if (err?.code === PG_UNIQUE_VIOLATION) throw new DomainError('NUMERO_JA_UTILIZADO', { numero: number, serie: doc.series });
      throw err;
    }
  }

  /**
   * Inserts the document CREATED, then runs `then` in the same transaction. With 'transmit' it is
   * inserted already TRANSMITTING (attempt 1 and its lease, as markTransmitting would start it:
   * lib/emission/transmission.ts), with both history rows: a new document's first transmission
   * then costs no transaction of its own (issue 18). Crash-safe as the separate commit was: a
   * document left TRANSMITTING is taken over when its lease expires (the 2 minutes a CREATED one
   * also waits), consulted by key, and transmitted when the authority does not know it.
   */
  private async insertCreated(trx: Knex.Transaction, doc: NewDocument, number: number, built: BuiltDocument, then?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    const record = (await this.writeCreated(statementsOf(trx), doc, number, built, then === 'transmit'))!;
    return typeof then === 'function' ? then(trx, record) : record;
  }

  /**
   * insertCreated; with `ifFree`, only when no document of the space holds `number` and no
   * inutilização that is not REJECTED covers it (undefined: nothing was written). That check is
   * stricter than firstFree's (which lets lib/emission/inutilizacao.ts decide which ranges hold
   * numbers), so a refusal here only sends the caller to firstFree.
   */
  private async writeCreated(trx: DirectTx, doc: NewDocument, number: number, built: BuiltDocument, transmit: boolean, ifFree?: SequenceKey): Promise<DocumentRecord | undefined> {
    const { row, history } = createdRow(this.d.now(), doc, number, built, transmit);
    // One statement: the document, the partner's first-document flag and the history rows
    // (writable CTEs; the history's foreign key is checked at the end of the statement).
    const columns = Object.keys(row);
    const names = columns.map(() => '??').join(', ');
    const values = columns.map(() => '?').join(', ');
    if (!ifFree) {
      const flag = firstDocumentCte('first_document', this.d.schema, row);
      await trx.query(
        `with created as (insert into ?? (${names}) values (${values})), ${flag.sql}
         insert into ?? (${HISTORY_COLUMNS}) values ${history.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        [this.t('documents'), ...columns, ...(Object.values(row) as Knex.Value[]), ...flag.bindings, this.t('document_history'), ...history.flat()],
        { prepare: true },
      );
    } else {
      const k = [ifFree.issuer_id, ifFree.model, ifFree.series, ifFree.environment];
      const space = 'issuer_id = ? and model = ? and series = ? and environment = ?';
      const flag = firstDocumentCte('first_document', this.d.schema, row, 'created');
      // Typed: values in a FROM list get no type from the target columns.
      const typed = '(?::uuid, ?::varchar, ?::varchar, ?::varchar, ?::text, ?::jsonb, ?::timestamptz)';
      const { rows } = await trx.query(
        `with created as (insert into ?? (${names}) select ${values}
           where not exists (select 1 from ?? where ${space} and number = ?)
             and not exists (select 1 from ?? where ${space} and status <> 'REJECTED' and start_number <= ? and end_number >= ?)
           returning id), ${flag.sql}
         insert into ?? (${HISTORY_COLUMNS}) select h.* from created, (values ${history.map(() => typed).join(', ')}) as h (${HISTORY_COLUMNS})
         returning document_id`,
        [this.t('documents'), ...columns, ...(Object.values(row) as Knex.Value[]),
          this.t('documents'), ...k, number, this.t('inutilizacoes'), ...k, number, number,
          ...flag.bindings, this.t('document_history'), ...history.flat()],
        { prepare: true },
      );
      if (!rows.length) return undefined;
    }
    return createdRecord({ row, history });
  }
}

function sequenceKey(doc: Omit<NewDocument, 'cnf'>): SequenceKey {
  return { issuer_id: doc.issuerId, model: doc.model, series: doc.series, environment: doc.environment };
}
