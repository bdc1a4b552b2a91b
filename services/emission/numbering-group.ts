import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import { directTransaction, RollBack, type DirectTx } from '../shared/direct-transaction.js';
import { createdRecord, createdRow, HISTORY_COLUMNS, type CreatedRow } from './created-row.js';
import { firstDocumentsCte } from './partner-activity.js';
import type { NewDocument } from './document-row.js';
import type { SequenceKey } from './fiscal-identity.js';
import type { NumberForecast } from './number-forecast.js';

export const MAX_NUMBER = 999_999_999;
/** Notes of one series numbered in one transaction at most: one statement of about 64 rows and their XML. */
export const MAX_NUMBERING_GROUP = 32;

/** A note waiting for its number: what it will be stored as, and how it is finished once numbered. */
export interface PendingNote {
  doc: Omit<NewDocument, 'cnf'>;
  build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>;
}

/** The sequence row locked and advanced by a whole group in one statement; the first number it holds. */
const CLAIM_GROUP_SQL = 'update ?? set next_number = next_number + ? where issuer_id = ? and model = ? and series = ? and environment = ? returning next_number - ? as first';

/**
 * Issue 18 (≥ 2,000 numbers/s per series): several notes of one series that waited together for
 * the issuer's numbering slot on this node (services/shared/bulkhead.ts runGrouped) are numbered in
 * ONE transaction: one claim of N consecutive numbers, each note finished (renumbered and signed)
 * with its number, one statement storing the N documents TRANSMITTING with their history and
 * first-document flags, one commit: its WAL flush and round trips are shared by the group instead
 * of paid by each note (group commit).
 *
 * All or nothing, as a single note's numbering: the group commits every note or none, so numbers
 * stay consecutive. Anything unusual (no sequence row yet, numbers running out, a number held by a
 * passthrough note (the unique index refuses the insert) or by an inutilização, an Idempotency-Key
 * bound meanwhile, a note whose finishing throws) throws RollBack before COMMIT is sent: nothing
 * was written, and the caller numbers the notes one by one on the general path, which answers
 * each of those cases for its own note. A failure at COMMIT is not a RollBack: its outcome is
 * unknown, and every note of the group fails as a single note would.
 *
 * With a `forecast` (number-forecast.ts) the notes are finished before the claim with the numbers
 * it foresees, and again under the lock only if the claim answers others: a note's `build` may run
 * twice, and the last run is the one stored.
 */
export async function numberGroup(knex: Knex, schema: string, now: Date, key: SequenceKey, notes: readonly PendingNote[], forecast?: NumberForecast): Promise<DocumentRecord[]> {
  const n = notes.length;
  const series = `${key.issuer_id}/${key.model}/${key.series}/${key.environment}`;
  // Finished before the claim when the series' next numbers can be foreseen: under the lock there
  // is then only the claim, the insert and the commit.
  const turn = forecast?.turn(series);
  const expected = forecast?.take(series, n);
  const early = expected === undefined ? undefined : await finishAll(notes, expected, now).catch(() => undefined);
  const literals = [`${schema}.number_sequences`, n, key.issuer_id, key.model, key.series, key.environment, n];
  try {
    await turn?.ready;
    return await directTransaction(knex, CLAIM_GROUP_SQL, literals, async (tx, rows) => {
      try {
        if (!rows[0]) throw new RollBack('no sequence row yet');
        const first = Number(rows[0].first);
        if (first + n - 1 > MAX_NUMBER) throw new RollBack('numbering exhausted');
        forecast?.claimed(series, first, n, expected);
        turn?.done();
        const created = early && expected === first ? early : await finishAll(notes, first, now);
        if (await writeGroup(tx, schema, key, first, created)) throw new RollBack('an inutilização holds a claimed number');
        return created.map(createdRecord);
      } catch (err) {
        if (err instanceof RollBack) throw err;
        throw new RollBack(`a note of the group failed: ${(err as Error)?.message ?? err}`, { cause: err });
      }
    });
  } catch (err) {
    forecast?.forget(series);
    throw err;
  } finally {
    turn?.done();
  }
}

/** Each note finished with its number (`first` onwards) as the row it is stored as. */
async function finishAll(notes: readonly PendingNote[], first: number, now: Date): Promise<CreatedRow[]> {
  const created: CreatedRow[] = [];
  for (const [i, note] of notes.entries()) {
    const { built, cnf } = await note.build(first + i);
    created.push(createdRow(now, { ...note.doc, cnf }, first + i, built, true));
  }
  return created;
}

/**
 * One statement: the documents, the partners' first-document flags and the history rows (writable
 * CTEs), and whether an inutilização that is not REJECTED covers a claimed number (true: the
 * caller rolls back). Read in this statement, which runs after the lock was taken, so it sees every
 * inutilização committed before (the claim's own snapshot predates its wait for the lock). A
 * number held by a document fails the unique index instead. Its text depends only on the group's
 * size: prepared once per size and connection.
 */
async function writeGroup(tx: DirectTx, schema: string, key: SequenceKey, first: number, created: readonly CreatedRow[]): Promise<boolean> {
  const columns = Object.keys(created[0]!.row);
  const names = columns.map(() => '??').join(', ');
  const row = `(${columns.map(() => '?').join(', ')})`;
  const history = created.flatMap((c) => c.history);
  const flags = firstDocumentsCte('first_documents', schema, created.map((c) => c.row));
  const { rows } = await tx.query(
    `with created as (insert into ?? (${names}) values ${created.map(() => row).join(', ')}),
       ${flags.sql},
       history as (insert into ?? (${HISTORY_COLUMNS}) values ${history.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')})
     select exists (select 1 from ?? where issuer_id = ? and model = ? and series = ? and environment = ?
       and status <> 'REJECTED' and start_number <= ? and end_number >= ?) as blocked`,
    [`${schema}.documents`, ...columns, ...created.flatMap((c) => Object.values(c.row) as Knex.Value[]),
      ...flags.bindings, `${schema}.document_history`, ...history.flat(),
      `${schema}.inutilizacoes`, key.issuer_id, key.model, key.series, key.environment, first + created.length - 1, first],
    { prepare: true },
  );
  return !!rows[0]?.blocked;
}
