import { Bulkhead } from '../shared/bulkhead.js';

/**
 * The terminal answers of documents this node transmitted itself, written together (issue 18),
 * for the NF-e/NFC-e store (store.ts) and the NFS-e store (nfse/store.ts). Each used to be a
 * statement and a commit of its own; under load the answers of several documents arrive while the
 * previous statement is still in flight, and the ones that waited are written in ONE statement
 * (transition-sql.ts transitionsStatement): one round trip, one commit (one WAL flush) and one
 * increment of each billing counter (a partner's hot row) for all of them. An answer that finds
 * no statement in flight is written at once, alone, as before: grouping adds no wait.
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
export const PREPARED_UP_TO = 4;

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
      const settled: Array<PromiseSettledResult<boolean>> = [];
      for (const o of outcomes) {
        try {
          settled.push({ status: 'fulfilled', value: unique.includes(o) && written(o, await this.statement([o])) });
        } catch (reason) {
          settled.push({ status: 'rejected', reason });
        }
      }
      return settled;
    }
  }
}
