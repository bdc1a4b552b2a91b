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

/** Both kinds of documents' history columns, in the order their rows are written. */
export const HISTORY_COLUMNS = 'document_id, from_status, to_status, trigger, motivo, detail, at';
const detailJson = (detail: unknown) => (detail ? JSON.stringify(detail) : null);
const joined = (also: Cte[]) => also.map((a) => `, ${a.sql}`).join('');

/**
 * The update of document `id`, its history row and `also`, in one statement that answers `id`
 * (an `also` CTE can read it from `changed`). For a row the caller's transaction holds locked.
 */
export function transitionStatement(tables: DocumentTables, id: string, changes: Record<string, Knex.Value | undefined>, entry: HistoryEntry,
  opts: { also?: Cte[] } = {}): Cte {
  const columns = Object.keys(changes).filter((c) => changes[c] !== undefined);
  const also = opts.also ?? [];
  return {
    sql: `with changed as (update ?? set ${columns.map(() => '?? = ?').join(', ')} where id = ? returning id)${joined(also)},
       logged as (insert into ?? (${HISTORY_COLUMNS}) select id, ?, ?, ?, ?, ?::jsonb, ?::timestamptz from changed)
       select id from changed`,
    bindings: [tables.documents, ...columns.flatMap((c) => [c, changes[c] as Knex.Value]), id, ...also.flatMap((a) => a.bindings),
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
 * are, so its prepared form serves every group of that shape. With `claim` (a select of one value,
 * `first`), that select comes first and the statement answers it: the claim of the group's numbers
 * in the same statement (group-claim.ts claimForecast).
 */
export function insertRowsStatement(tables: DocumentTables, created: ReadonlyArray<{ row: Record<string, Knex.Value> & { id: string }; entries: HistoryEntry[] }>, also: Cte[] = [], claim?: Cte): Cte {
  const history = created.flatMap((c) => c.entries.map((e) => [c.row.id, e.from, e.to, e.trigger, e.motivo, detailJson(e.detail), e.at]));
  return insertWithHistory(tables, created.map((c) => c.row), history, also, claim);
}

/** insertRowsStatement with the history rows as their values, in HISTORY_COLUMNS order. */
export function insertWithHistory(tables: DocumentTables, rows: ReadonlyArray<Record<string, Knex.Value>>, history: readonly Knex.Value[][], also: Cte[] = [], claim?: Cte): Cte {
  const columns = Object.keys(rows[0]!);
  const values = `(${columns.map(() => '?').join(', ')})`;
  const insertHistory = `insert into ?? (${HISTORY_COLUMNS}) values ${history.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
  return {
    sql: `with ${claim ? `claim as (${claim.sql}), ` : ''}created as (insert into ?? (${columns.map(() => '??').join(', ')}) values ${rows.map(() => values).join(', ')})${joined(also)}
       ${claim ? `, history as (${insertHistory}) select first from claim` : insertHistory}`,
    bindings: [...(claim?.bindings ?? []), tables.documents, ...columns, ...rows.flatMap((row) => columns.map((col) => row[col] as Knex.Value)), ...also.flatMap((a) => a.bindings),
      tables.history, ...history.flat()],
  };
}

/** A column a grouped transition sets or guards: its SQL type types the VALUES list (by its first row). */
export interface GroupedColumn {
  name: string;
  type: string;
  /** A null value keeps the row's own (an answer without that detail), instead of writing null. */
  keepWhenNull?: boolean;
}

/** One document's part of a grouped transition: its new values and guard by column, and its history row. */
export interface GroupedTransition {
  id: string;
  set: Record<string, Knex.Value | undefined>;
  guard: Record<string, Knex.Value>;
  entry: HistoryEntry;
}

/**
 * transitionStatement with a guard for several documents at once (services/emission/outcome-group.ts):
 * each row changes only while it still holds its own guard (`is not distinct from`), its history
 * row follows only if it changed, and `also` CTEs can read the ids that changed from `changed`.
 * Answers the ids that changed. Column names are the store's own constants, written into the text.
 */
export function transitionsStatement(tables: DocumentTables, columns: { set: readonly GroupedColumn[]; guard: readonly GroupedColumn[] }, items: readonly GroupedTransition[], also: Cte[] = []): Cte {
  const input = [
    { name: 'id', type: 'uuid' },
    ...columns.set.map((c) => ({ name: `s_${c.name}`, type: c.type })),
    ...columns.guard.map((c) => ({ name: `g_${c.name}`, type: c.type })),
    ...HISTORY_INPUT,
  ];
  const rows = items.map((_, i) => `(${input.map((c) => (i === 0 ? `?::${c.type}` : '?')).join(', ')})`).join(', ');
  const sets = columns.set.map((c) => (c.keepWhenNull ? `${c.name} = coalesce(i.s_${c.name}, d.${c.name})` : `${c.name} = i.s_${c.name}`)).join(', ');
  const guards = columns.guard.map((c) => ` and d.${c.name} is not distinct from i.g_${c.name}`).join('');
  return {
    sql: `with input (${input.map((c) => c.name).join(', ')}) as (values ${rows}),
       changed as (update ?? as d set ${sets} from input as i where d.id = i.id${guards} returning d.id)${joined(also)},
       logged as (insert into ?? (${HISTORY_COLUMNS}) select i.id, i.h_from, i.h_to, i.h_trigger, i.h_motivo, i.h_detail, i.h_at from input as i join changed as c on c.id = i.id)
       select id from changed`,
    bindings: [
      ...items.flatMap((t) => [t.id, ...columns.set.map((c) => t.set[c.name] ?? null), ...columns.guard.map((c) => t.guard[c.name] ?? null),
        t.entry.from, t.entry.to, t.entry.trigger, t.entry.motivo, detailJson(t.entry.detail), t.entry.at]),
      tables.documents, ...also.flatMap((a) => a.bindings), tables.history,
    ],
  };
}

/** A grouped transition's history columns in its VALUES list. */
const HISTORY_INPUT = [
  { name: 'h_from', type: 'text' }, { name: 'h_to', type: 'text' }, { name: 'h_trigger', type: 'text' },
  { name: 'h_motivo', type: 'text' }, { name: 'h_detail', type: 'jsonb' }, { name: 'h_at', type: 'timestamptz' },
];

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
 * Slots per billing counter. Every authorized document of a partner increments its counter in the
 * statement that authorizes it, and the counter row stays locked until that statement commits
 * (its WAL flush included): with one row per partner and month, every node's authorizations of
 * all the partner's issuers queued on it. Each statement takes one of these slots (the row of
 * that counter and slot); reads sum the slots.
 */
const BILLING_SLOTS = 16;

/**
 * The slot a statement counts in, from the first document's id (a random UUID): statements
 * counting for the same partner at once meet on one row only one time in BILLING_SLOTS. The same
 * for every counter of the statement, so its rows are still locked in key order.
 */
export function billingSlot(firstDocumentId: string): number {
  return Number.parseInt(firstDocumentId.slice(0, 8), 16) % BILLING_SLOTS;
}

/**
 * The billing counters of authorized documents (API.md: test-key emissions are not billed; they
 * are counted apart), as a writable CTE `billed` in the statement of the authorization itself
 * (issue 18: no round trip of its own). Each document counts only if its id is among those the
 * earlier CTE `idsIn` returned (the update that authorized it), and each counter is incremented
 * once for all its documents, in one slot (billingSlot). Counters are taken in key order, so two
 * statements counting for the same partners never wait for each other crosswise.
 */
export function billingCte(table: string, docs: ReadonlyArray<Billed & { id: string }>, idsIn: string): Cte {
  const values = docs.map((_, i) => (i === 0 ? '(?::uuid, ?::text, ?::text, ?::text, ?::smallint, ?::text, ?::boolean)' : '(?, ?, ?, ?, ?, ?, ?)')).join(', ');
  return {
    sql: `billed as (insert into ?? as b (partner_id, period, model, environment, key_kind, slot, billable, count)
      select v.partner_id, v.period, v.model, v.environment, v.key_kind, ?::smallint, v.billable, count(*)
        from (values ${values}) as v (document_id, partner_id, period, model, environment, key_kind, billable)
        where v.document_id in (select id from ${idsIn})
        group by v.partner_id, v.period, v.model, v.environment, v.key_kind, v.billable
        order by v.partner_id, v.period, v.model, v.environment, v.key_kind
      on conflict (partner_id, period, model, environment, key_kind, slot) do update set count = b.count + excluded.count)`,
    bindings: [table, billingSlot(docs[0]!.id), ...docs.flatMap((doc) => [doc.id, ...billingKey(doc)])],
  };
}

/** A document's billing counter key and whether it is billable, in the counters' column order. */
function billingKey(doc: Billed): Knex.Value[] {
  return [doc.partnerId, doc.createdAt.toISOString().slice(0, 7), doc.model, doc.environment, doc.keyKind, doc.keyKind !== 'test'];
}
