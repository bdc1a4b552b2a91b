import type { Knex } from 'knex';
import type { Erro } from '../../lib/emission/document.js';
import { Bulkhead, settleEach } from '../shared/bulkhead.js';
import { runStatement } from '../shared/pg-statement.js';
import type { StoreDeps } from './document-row.js';
import { transitionsStatement, type Cte, type DocumentTables, type GroupedColumn } from './transition-sql.js';

/**
 * The terminal answers of documents this node transmitted itself, written together (issue 18),
 * for the NF-e/NFC-e store (store.ts) and the NFS-e store (nfse/store.ts). Each used to be a
 * statement and a commit of its own; under load the answers of several documents arrive while the
 * previous statement is still in flight, and the ones that waited are written in ONE statement
 * (transition-sql.ts transitionsStatement): one round trip, one commit (one WAL flush) and one
 * increment of each billing counter (in one of its slots: transition-sql.ts billingSlot) for all
 * of them. An answer that finds no statement in flight is written at once, alone, as before:
 * grouping adds no wait.
 *
 * Each document keeps its own guard: its row changes only while it is still TRANSMITTING under
 * the attempt it was sent with; its history row, billing count and outbox event follow only if it
 * changed. One whose guard did not hold answers false, and its caller decides under the row lock
 * (the store's applyOutcome), as a document alone did.
 */

/** Statements of answers in flight per store and node; the answers arriving meanwhile wait and go together. */
const STATEMENTS_IN_FLIGHT = 2;
/** Documents one statement writes at most (each carries its authorized XML, a few KB when small). */
export const MAX_OUTCOME_GROUP = 32;
/**
 * The wait is bounded only so a stuck database cannot pile answers up forever: a refused answer
 * is decided under the row lock instead (the store's general path), never lost.
 */
const MAX_WAITING = 10_000;
const WAIT_MS = 30_000;
/** Up to this many documents a statement is prepared (its text has one shape per count and mix of parts). */
const PREPARED_UP_TO = 4;

export class OutcomeGroups<O> {
  private readonly slots = new Bulkhead({ concurrency: STATEMENTS_IN_FLIGHT, maxQueued: MAX_WAITING, queueTimeoutMs: WAIT_MS, maxGroup: MAX_OUTCOME_GROUP });

  /**
   * `idOf`: the document an answer is for. `write`: the one statement for a group of answers, of
   * distinct documents; answers the ids it changed.
   */
  constructor(private readonly idOf: (outcome: O) => string, private readonly statement: (outcomes: readonly O[]) => Promise<ReadonlySet<string>>) {}

  /** Whether the answer was written (false: its guard did not hold, or the wait was refused). */
  write(outcome: O): Promise<boolean> {
    return this.slots.runGrouped('outcomes', 'outcomes', outcome, (all) => this.writeAll(all), () => false);
  }

  /** One statement for the group; if it fails, each answer alone, so one cannot fail another's. */
  private async writeAll(outcomes: O[]): Promise<Array<PromiseSettledResult<boolean>>> {
    // A document twice in one group (two answers racing) would be updated twice by one statement:
    // the later answers are left to the row lock.
    const seen = new Set<string>();
    const unique = outcomes.filter((o) => !seen.has(this.idOf(o)) && !!seen.add(this.idOf(o)));
    const written = (o: O, changed: ReadonlySet<string>) => unique.includes(o) && changed.has(this.idOf(o));
    try {
      const changed = await this.statement(unique);
      return outcomes.map((o) => ({ status: 'fulfilled', value: written(o, changed) }));
    } catch (err) {
      if (outcomes.length === 1) return [{ status: 'rejected', reason: err }];
      return settleEach(outcomes, async (o) => unique.includes(o) && written(o, await this.statement([o])));
    }
  }
}

/**
 * The columns every terminal answer writes (then each store's details, which keep the row's value
 * when the answer lacks them), and the guard it is written under: still TRANSMITTING under the
 * attempt it was sent with (each store may add to it).
 */
export const ANSWER_COLUMNS: readonly GroupedColumn[] = [
  { name: 'status', type: 'text' }, { name: 'motivo', type: 'text' }, { name: 'updated_at', type: 'timestamptz' },
  { name: 'transmitting_until', type: 'timestamptz' }, { name: 'next_check_at', type: 'timestamptz' },
];
export const ANSWER_GUARD: readonly GroupedColumn[] = [{ name: 'status', type: 'text' }, { name: 'transmissions', type: 'int' }];

/** One document's terminal answer as a store writes it in a group. */
export interface GroupedAnswer {
  id: string;
  /** The attempt it answers. */
  transmissions: number;
  /** Its columns by name (ANSWER_COLUMNS and the store's own), and the guard columns beyond ANSWER_GUARD. */
  set: Record<string, Knex.Value | undefined>;
  guard?: Record<string, Knex.Value>;
  to: string;
  motivo: string | null;
  at: Date;
  trigger: string;
  erros?: Erro[];
  event: { type: string; partnerId: string; data: Record<string, unknown> } | undefined;
}

/**
 * The one statement of a group of answers, for either store: the guarded updates and their history
 * rows (transitionsStatement), the store's `also` CTEs (billing, …, reading `changed`), and the
 * events of the rows that changed, handed to the relay once it returned. Answers the ids it changed.
 */
export async function writeAnswers(d: Pick<StoreDeps, 'knex' | 'eventsCte'>, tables: DocumentTables, columns: { set: readonly GroupedColumn[]; guard: readonly GroupedColumn[] },
  answers: readonly GroupedAnswer[], also: Cte[]): Promise<ReadonlySet<string>> {
  const items = answers.map((a) => ({
    id: a.id, set: a.set, guard: { status: 'TRANSMITTING', transmissions: a.transmissions, ...a.guard },
    entry: { from: 'TRANSMITTING', to: a.to, trigger: a.trigger, motivo: a.motivo, detail: a.erros ? { erros: a.erros } : null, at: a.at },
  }));
  const withEvents = answers.flatMap((a) => (a.event ? [{ key: a.id, event: a.event }] : []));
  // The statement commits by itself: its events are handed to the relay from memory once it returns.
  const events = withEvents.length ? d.eventsCte!('events', withEvents, 'changed') : undefined;
  const statement = transitionsStatement(tables, columns, items, [...also, ...(events ? [events] : [])]);
  const { rows } = await runStatement(d.knex, statement.sql, statement.bindings, { prepare: answers.length <= PREPARED_UP_TO });
  const changed = new Set<string>(rows.map((r: { id: string }) => r.id));
  events?.written(changed);
  return changed;
}
