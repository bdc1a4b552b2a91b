import type { Knex } from 'knex';
import { directTransaction, RollBack, type DirectTx, type OpeningLiteral } from '../shared/direct-transaction.js';
import { ServerRefused } from '../shared/statement-then-commit.js';
import { settleEach, settledValue } from '../shared/bulkhead.js';
import type { NumberForecast } from './number-forecast.js';

/**
 * Issue 18 (≥ 2,000 numbers/s per series), for every kind of document numbered by a series'
 * sequence row (NF-e/NFC-e: numbering-group.ts; NFS-e DPS: nfse/numbering.ts): several documents
 * of one series that waited together for the issuer's numbering slot on this node
 * (services/shared/bulkhead.ts runGrouped) are numbered in ONE transaction: one claim of N
 * consecutive numbers, each document finished (renumbered and signed) with its number, one
 * statement storing the N documents TRANSMITTING with their history and first-document flags, sent
 * with COMMIT in one message: its WAL flush and round trips are shared by the group instead of
 * paid by each (group commit), and the series' lock is held for two round trips.
 *
 * All or nothing, as a single document's numbering: the group commits every document or none, so
 * numbers stay consecutive. Anything unusual (no sequence row yet, numbers running out, a number
 * held by another document (the unique index refuses the insert) or by an inutilização, an
 * Idempotency-Key bound meanwhile, a document whose finishing throws, the server refusing the
 * insert or its COMMIT) throws RollBack: nothing was written, and the caller numbers the documents
 * one by one on its general path, which answers each of those cases for its own document. A
 * failure whose outcome is unknown (the connection lost with the insert and COMMIT sent) is not a
 * RollBack: every document of the group fails as a single one would.
 *
 * With a `forecast` (number-forecast.ts) the documents are finished before the claim with the
 * numbers it foresees, and again under the lock only if the claim answers others: a document's
 * `build` may run twice, and the last run is the one stored. Where the plan can (`claimForecast`),
 * the foreseen numbers are first claimed together with the insert, in one statement: when the
 * forecast holds, which is the rule on a series only this node numbers, a group costs one round
 * trip and the series' lock is held only while that statement commits; when it does not, the
 * server refuses the statement and the claim and the write follow as above.
 */

/** A document waiting for its number: what it will be stored as, and how it is finished once numbered. */
export interface Pending<Doc, Built> {
  doc: Doc;
  build: (number: number) => Promise<Built>;
}

/** How one kind of document's series numbers a group of its documents. */
export interface GroupPlan<P, Row> {
  /** The series as the forecast knows it (unique across kinds of documents). */
  series: string;
  /**
   * Locks the series' sequence row and advances it by the group's size, answering the first
   * number it holds as `first`, and `blocked` when something other than a document (an
   * inutilização) holds one of them; it travels with BEGIN, so its `?` are literals.
   */
  claim: { sql: string; literals: OpeningLiteral[] };
  maxNumber: number;
  /** The document finished with `number`, as the row it is stored as. */
  finish(pending: P, number: number): Promise<Row>;
  /** Stores the rows in one statement, sent with COMMIT (`tx.commitWith`). */
  write(tx: DirectTx, rows: readonly Row[]): Promise<void>;
  /**
   * Claims the numbers from `first` on (the forecast) and stores `rows`, finished with them, in ONE
   * statement committed by itself; the server refuses it (ServerRefused: nothing was written)
   * unless the series continues at `first` and nothing holds those numbers. Absent: every group
   * takes the claim and the write.
   */
  claimForecast?(first: number, rows: readonly Row[]): Promise<void>;
}

/** The group numbered from one claim and stored, as the rows written in order; RollBack: nothing was. */
export async function claimGroup<P, Row>(knex: Knex, pending: readonly P[], plan: GroupPlan<P, Row>, forecast?: NumberForecast): Promise<Row[]> {
  const n = pending.length;
  const { series } = plan;
  // Finished before the claim when the series' next numbers can be foreseen: under the lock there
  // is then only the claim, the insert and the commit.
  const turn = forecast?.turn(series);
  const expected = forecast?.take(series, n);
  const early = expected === undefined ? undefined : await finishAll(pending, plan, expected).catch(() => undefined);
  try {
    await turn?.ready;
    if (early && expected !== undefined && plan.claimForecast && expected + n - 1 <= plan.maxNumber) {
      try {
        await plan.claimForecast(expected, early);
        forecast!.claimed(series, expected, n, expected);
        return early;
      } catch (err) {
        // Sent committing itself: only the server's refusal says nothing was committed.
        if (!(err instanceof ServerRefused)) throw err;
        // The series did not continue there, or something holds a number: the claim below decides.
      }
    }
    let writing = false;
    return await directTransaction(knex, plan.claim.sql, plan.claim.literals, async (tx, rows) => {
      try {
        if (!rows[0]) throw new RollBack('no sequence row yet');
        const first = Number(rows[0].first);
        if (first + n - 1 > plan.maxNumber) throw new RollBack('numbering exhausted');
        if (rows[0].blocked) throw new RollBack('a claimed number is held');
        forecast?.claimed(series, first, n, expected);
        turn?.done();
        const created = early && expected === first ? early : await finishAll(pending, plan, first);
        writing = true;
        await plan.write(tx, created);
        return created;
      } catch (err) {
        if (err instanceof RollBack) throw err;
        // Sent with COMMIT: only the server's refusal says nothing was committed.
        if (writing && !(err instanceof ServerRefused)) throw err;
        throw new RollBack(`a document of the group failed: ${(err as Error)?.message ?? err}`, { cause: err });
      }
    });
  } catch (err) {
    forecast?.forget(series);
    throw err;
  } finally {
    turn?.done();
  }
}

/**
 * Every document finished with its number, side by side (their signatures run in the thread pool
 * together: Signer.signAsync). Settled before it answers, failed or not: a document finished again
 * later (the general path, a missed forecast) must not be overwritten by a straggler of this run,
 * since the last run of a document's `build` is the one it stores.
 */
async function finishAll<P, Row>(pending: readonly P[], plan: GroupPlan<P, Row>, first: number): Promise<Row[]> {
  return (await Promise.allSettled(pending.map((p, i) => plan.finish(p, first + i)))).map(settledValue);
}

/**
 * The documents numbered together (`together`: one claimGroup, when the store can) or, when it
 * cannot or the group rolled back, each on its own (`each`, the general path, which answers every
 * unusual case for its own document): one settled result per document, in order. A failure that
 * is not a RollBack (at COMMIT: outcome unknown) fails them all.
 */
export async function togetherOrEach<P, R>(pending: readonly P[], together: (() => Promise<R[]>) | undefined, each: (p: P) => Promise<R>): Promise<Array<PromiseSettledResult<R>>> {
  if (pending.length && together) {
    try {
      return (await together()).map((value) => ({ status: 'fulfilled', value }));
    } catch (err) {
      if (!(err instanceof RollBack)) throw err;
    }
  }
  return settleEach(pending, each);
}
