import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import { committedStatement, type DirectTx } from '../shared/direct-transaction.js';
import { claimGroup, type Pending } from './group-claim.js';
import { createdRecord, createdRow, type CreatedRow } from './created-row.js';
import { insertWithHistory, type Cte } from './transition-sql.js';
import { firstDocumentsCte } from './partner-activity.js';
import type { NewDocument } from './document-row.js';
import type { SequenceKey } from './fiscal-identity.js';
import type { NumberForecast } from './number-forecast.js';

export const MAX_NUMBER = 999_999_999;
/** Notes of one series numbered in one transaction at most: one statement of about 64 rows and their XML. */
export const MAX_NUMBERING_GROUP = 32;

/** A note waiting for its number: what it will be stored as, and how it is finished once numbered. */
export type PendingNote = Pending<Omit<NewDocument, 'cnf'>, { built: BuiltDocument; cnf: string }>;

/**
 * The sequence row locked and advanced by a whole group, then, in a statement of its own, the first
 * number it holds and whether an inutilização that is not REJECTED covers one of the group's. That
 * second statement runs after the lock was taken, so it sees every inutilização committed before
 * (the claim's own snapshot predates its wait for the lock); a number held by a document fails the
 * unique index instead.
 */
const CLAIM_GROUP_SQL = `update ?? set next_number = next_number + ? where issuer_id = ? and model = ? and series = ? and environment = ?;
  select s.next_number - ? as first, exists (select 1 from ?? i where i.issuer_id = s.issuer_id and i.model = s.model and i.series = s.series
    and i.environment = s.environment and i.status <> 'REJECTED' and i.start_number < s.next_number and i.end_number >= s.next_number - ?) as blocked
  from ?? s where s.issuer_id = ? and s.model = ? and s.series = ? and s.environment = ?`;

/** The numbering space of a new note, as the key its series' notes are grouped by (and forecast under). */
export function numberingGroup(doc: Omit<NewDocument, 'cnf'>): string {
  return `${doc.issuerId}/${doc.model}/${doc.series}/${doc.environment}`;
}

/**
 * A series' NF-e/NFC-e notes that waited together for the issuer's numbering slot, numbered in one
 * transaction (group-claim.ts: all or nothing, RollBack for anything unusual, the forecast's early
 * finish), each stored TRANSMITTING as createNumbered(…, 'transmit') stores one.
 */
export async function numberGroup(knex: Knex, schema: string, now: Date, key: SequenceKey, notes: readonly PendingNote[], forecast?: NumberForecast): Promise<DocumentRecord[]> {
  const n = notes.length;
  const created = await claimGroup(knex, notes, {
    series: numberingGroup(notes[0]!.doc),
    claim: {
      sql: CLAIM_GROUP_SQL,
      literals: [`${schema}.number_sequences`, n, ...keyOf(key), n, `${schema}.inutilizacoes`, n, `${schema}.number_sequences`, ...keyOf(key)],
    },
    maxNumber: MAX_NUMBER,
    finish: async (note, number) => {
      const { built, cnf } = await note.build(number);
      return createdRow(now, { ...note.doc, cnf }, number, built, true);
    },
    write: (tx, rows) => writeGroup(tx, schema, rows),
    claimForecast: (first, rows) => claimForecastAndWrite(knex, schema, key, first, rows),
  }, forecast);
  return created.map(createdRecord);
}

const keyOf = (key: SequenceKey) => [key.issuer_id, key.model, key.series, key.environment];

/**
 * The documents, the partners' first-document flags and the history rows in one statement (writable
 * CTEs), sent with COMMIT. Its text depends only on the group's size: prepared once per size and
 * connection.
 */
async function writeGroup(tx: DirectTx, schema: string, created: readonly CreatedRow[]): Promise<void> {
  const { sql, bindings } = groupStatement(schema, created);
  await tx.commitWith(sql, bindings, { prepare: true });
}

/**
 * The claim of the numbers foreseen for the group (from `first` on) and its documents, as
 * writeGroup stores them, in ONE statement committed by itself: one round trip, and the series'
 * lock held only while it runs and commits. The claim is migration 076's claim_forecast, which
 * raises unless the series continues at `first` with no inutilização in the way: then nothing is
 * written (ServerRefused), as when a number is held by a passthrough note (the unique index).
 */
async function claimForecastAndWrite(knex: Knex, schema: string, key: SequenceKey, first: number, created: readonly CreatedRow[]): Promise<void> {
  const { sql, bindings } = groupStatement(schema, created, { key, first });
  await committedStatement(knex, sql, bindings, { prepare: true });
}

/** writeGroup's statement; with `claim`, claim_forecast's call first. */
function groupStatement(schema: string, created: readonly CreatedRow[], claim?: { key: SequenceKey; first: number }): Cte {
  const flags = firstDocumentsCte('first_documents', schema, created.map((c) => c.row));
  return insertWithHistory({ documents: `${schema}.documents`, history: `${schema}.document_history` }, created.map((c) => c.row), created.flatMap((c) => c.history), [flags],
    claim && { sql: 'select ??(?::uuid, ?::text, ?::int, ?::smallint, ?::int, ?::int) as first', bindings: [`${schema}.claim_forecast`, ...keyOf(claim.key), claim.first, created.length] });
}
