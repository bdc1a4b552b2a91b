import type { Knex } from 'knex';

/**
 * The statements of a document's state changes, shared by the NF-e/NFC-e store (store.ts) and the
 * NFS-e store (nfse/store.ts): on the hot path every round trip counts (issue 18), so a state
 * change, its history row and what goes with it (billing counter, outbox event, …) are one
 * statement of writable CTEs, committed together. Text and bindings only: the stores run them.
 */

/** A writable CTE (`<name> as (…)`) with its bindings, to put in such a statement. */
export interface Cte {
  sql: string;
  bindings: Knex.Value[];
}

/** One kind of document's tables: its rows and their history (both kinds' history tables have the same columns). */
export interface DocumentTables {
  documents: string;
  history: string;
}

/** One history row of a state change. */
export interface HistoryEntry {
  from: string | null;
  to: string;
  trigger: string;
  motivo: string | null;
  /** Stored as jsonb; null or undefined: none. */
  detail: unknown;
  at: Date;
}

const HISTORY_COLUMNS = 'document_id, from_status, to_status, trigger, motivo, detail, at';
const detailJson = (detail: unknown) => (detail ? JSON.stringify(detail) : null);
const joined = (also: Cte[]) => also.map((a) => `, ${a.sql}`).join('');

/**
 * The update of document `id`, its history row and `also`, in one statement that answers `id` when
 * the update applied. With `guard` (column → the value it must still hold, null included) it
 * applies only to a row that still holds them: a statement that commits by itself, with no lock
 * taken before, changes only the state it was decided on, and its history row follows the update
 * (an `also` that must follow it too reads `onlyIfRowsIn: 'changed'`). Without, for a row the
 * caller's transaction holds locked.
 */
export function transitionStatement(tables: DocumentTables, id: string, changes: Record<string, Knex.Value | undefined>, entry: HistoryEntry,
  opts: { guard?: Record<string, Knex.Value>; also?: Cte[] } = {}): Cte {
  const columns = Object.keys(changes).filter((c) => changes[c] !== undefined);
  const guard = Object.entries(opts.guard ?? {});
  const also = opts.also ?? [];
  return {
    sql: `with changed as (update ?? set ${columns.map(() => '?? = ?').join(', ')} where id = ?${guard.map(() => ' and ?? is not distinct from ?').join('')} returning id)${joined(also)},
       logged as (insert into ?? (${HISTORY_COLUMNS}) select id, ?, ?, ?, ?, ?::jsonb, ?::timestamptz from changed)
       select id from changed`,
    bindings: [tables.documents, ...columns.flatMap((c) => [c, changes[c] as Knex.Value]), id, ...guard.flatMap(([c, v]) => [c, v]), ...also.flatMap((a) => a.bindings),
      tables.history, entry.from, entry.to, entry.trigger, entry.motivo, detailJson(entry.detail), entry.at],
  };
}

/** A new document's row, its history rows and `also`, in one statement (the history of a row it inserts). */
export function insertStatement(tables: DocumentTables, row: Record<string, Knex.Value> & { id: string }, entries: HistoryEntry[], also: Cte[] = []): Cte {
  return insertRowsStatement(tables, [{ row, entries }], also);
}

/**
 * insertStatement for several new documents of the same columns (a series' group numbered at once:
 * services/emission/group-claim.ts). Its text depends only on how many rows and history rows there
 * are, so its prepared form serves every group of that shape.
 */
export function insertRowsStatement(tables: DocumentTables, created: ReadonlyArray<{ row: Record<string, Knex.Value> & { id: string }; entries: HistoryEntry[] }>, also: Cte[] = []): Cte {
  const columns = Object.keys(created[0]!.row);
  const values = `(${columns.map(() => '?').join(', ')})`;
  const entries = created.flatMap((c) => c.entries.map((e) => [c.row.id, e.from, e.to, e.trigger, e.motivo, detailJson(e.detail), e.at]));
  return {
    sql: `with created as (insert into ?? (${columns.map(() => '??').join(', ')}) values ${created.map(() => values).join(', ')})${joined(also)}
       insert into ?? (${HISTORY_COLUMNS}) values ${entries.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    bindings: [tables.documents, ...columns, ...created.flatMap((c) => columns.map((col) => c.row[col] as Knex.Value)), ...also.flatMap((a) => a.bindings),
      tables.history, ...entries.flat()],
  };
}

/** What the billing counter of an authorized document is keyed by. */
export interface Billed {
  partnerId: string;
  createdAt: Date;
  /** '55', '65' or 'NFSe' (migrations/emission/nfse.ts widened the column for it). */
  model: string;
  environment: number;
  keyKind: string;
}

/**
 * API.md: test-key emissions are not billed; they are counted apart. A writable CTE `billed`,
 * written in the statement of the authorization itself (issue 18: one round trip less per note);
 * with `onlyIfRowsIn`, only if that earlier CTE returned rows.
 */
export function billingCte(table: string, doc: Billed, onlyIfRowsIn?: string): Cte {
  // A select has no target column types to infer its parameters from: they are cast.
  const values = onlyIfRowsIn ? `select ?, ?, ?, ?::smallint, ?, ?::boolean, 1 where exists (select 1 from ${onlyIfRowsIn})` : 'values (?, ?, ?, ?, ?, ?, 1)';
  return {
    sql: `billed as (insert into ?? as b (partner_id, period, model, environment, key_kind, billable, count) ${values}
      on conflict (partner_id, period, model, environment, key_kind) do update set count = b.count + 1)`,
    bindings: [table, ...billingKey(doc)],
  };
}

/**
 * billingCte for several documents (services/emission/outcome-group.ts), each counted only if its
 * id is among those the earlier CTE `idsIn` returned: one increment per counter for all its
 * documents. Counters are taken in key order, so two such statements counting for the same
 * partners never wait for each other crosswise.
 */
export function billingRowsCte(table: string, docs: ReadonlyArray<Billed & { id: string }>, idsIn: string): Cte {
  const values = docs.map((_, i) => (i === 0 ? '(?::uuid, ?::text, ?::text, ?::text, ?::smallint, ?::text, ?::boolean)' : '(?, ?, ?, ?, ?, ?, ?)')).join(', ');
  return {
    sql: `billed as (insert into ?? as b (partner_id, period, model, environment, key_kind, billable, count)
      select v.partner_id, v.period, v.model, v.environment, v.key_kind, v.billable, count(*)
        from (values ${values}) as v (document_id, partner_id, period, model, environment, key_kind, billable)
        where v.document_id in (select id from ${idsIn})
        group by v.partner_id, v.period, v.model, v.environment, v.key_kind, v.billable
        order by v.partner_id, v.period, v.model, v.environment, v.key_kind
      on conflict (partner_id, period, model, environment, key_kind) do update set count = b.count + excluded.count)`,
    bindings: [table, ...docs.flatMap((doc) => [doc.id, ...billingKey(doc)])],
  };
}

/** A document's billing counter key and whether it is billable, in the counters' column order. */
function billingKey(doc: Billed): Knex.Value[] {
  return [doc.partnerId, doc.createdAt.toISOString().slice(0, 7), doc.model, doc.environment, doc.keyKind, doc.keyKind !== 'test'];
}
