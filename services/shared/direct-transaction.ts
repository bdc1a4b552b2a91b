import type { Knex } from 'knex';
import { prepared } from './prepared.js';
import { hasPgConnections, runOn, runStatement, statementConfig, type PgConnection, type PgResult, type StatementOptions } from './pg-statement.js';
import { refusedByServer, ServerRefused, statementThenCommit } from './statement-then-commit.js';

/**
 * What a direct transaction's body runs its statements with (text as for `knex.raw`). A knex
 * transaction offers the same through `statementsOf`, so a statement writer serves both.
 */
export interface DirectTx {
  query(sql: string, bindings: readonly Knex.RawBinding[], opts?: StatementOptions): Promise<PgResult>;
  /**
   * The transaction's last statement, committed with it: in a direct transaction, the statement
   * and COMMIT travel in one message (statement-then-commit.ts), and a `ServerRefused` from it
   * means nothing was committed; any other failure leaves the outcome unknown. Nothing may run
   * after it. In a knex transaction, the statement (knex commits when the body returns).
   */
  commitWith(sql: string, bindings: readonly Knex.RawBinding[], opts?: StatementOptions): Promise<PgResult>;
}

/** A knex transaction as a DirectTx (its general path: PGlite, hooks after the insert). */
export function statementsOf(trx: Knex.Transaction): DirectTx {
  const query: DirectTx['query'] = async (sql, bindings, opts = {}) => {
    const raw = trx.raw(sql, bindings as Knex.RawBinding[]);
    return await (opts.prepare ? prepared(raw) : raw) as PgResult;
  };
  return { query, commitWith: query };
}

/**
 * One statement committed by itself (no transaction around it) on a pooled connection: when the
 * server refuses it, nothing of it stays (`ServerRefused`); any other failure (the connection
 * lost after sending it) leaves its outcome unknown, and is passed on as it came.
 */
export async function committedStatement(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[], opts: StatementOptions = {}): Promise<PgResult> {
  try {
    return await runStatement(knex, sql, bindings, opts);
  } catch (err) {
    throw refusedByServer(err) ? new ServerRefused(err) : err;
  }
}

/** The body asks for the transaction to be rolled back and the caller to take its other path. */
export class RollBack extends Error {
  constructor(readonly reason: string, options?: { cause?: unknown }) {
    super(`direct transaction rolled back: ${reason}`, options);
    this.name = 'RollBack';
  }
}

/** A literal for the opening statement: only the kinds a key of a row needs, each checked. */
export type OpeningLiteral = string | number;

/** Whether `knex` talks to a Postgres server through node-postgres (not PGlite's single session). */
export const supportsDirectTransactions = hasPgConnections;

/**
 * A transaction on one pooled connection, for the hottest one of the product (a note's numbering:
 * issue 18). Two round trips fewer than `knex.transaction` costs it and none of its per-transaction
 * instance: BEGIN travels with the opening statement in one simple-protocol message, so that
 * statement takes no parameters; its `?` placeholders are filled with literals escaped by the
 * driver, and only strings and safe integers are accepted. Every later statement binds its
 * parameters as usual (`tx.query`), sent to the connection without knex's runner
 * (services/shared/pg-statement.ts). The body's result is committed; any throw rolls back, and a
 * `RollBack` thrown by the body is rethrown for the caller to take its other path.
 *
 * `opening` answers with its rows (a multi-statement message answers one result per statement).
 */
export async function directTransaction<T>(knex: Knex, opening: string, literals: readonly OpeningLiteral[], body: (tx: DirectTx, rows: any[]) => Promise<T>): Promise<T> {
  const connection = await knex.client.acquireConnection() as PgConnection;
  try {
    const sql = `begin; ${fillLiterals(opening, literals, connection)}`;
    const results = await runOn(knex, connection, sql, []);
    const opened = Array.isArray(results) ? results[results.length - 1] : results;
    let committed = false;
    const open = () => { if (committed) throw new Error('directTransaction: a statement after commitWith'); };
    const tx: DirectTx = {
      query: async (statement, bindings, opts) => { open(); return await runOn(knex, connection, statement, bindings, opts) as PgResult; },
      commitWith: async (statement, bindings, opts) => {
        open();
        committed = true;
        return statementThenCommit(connection, statementConfig(knex, connection, statement, bindings, opts, (text) => `${text}; commit`));
      },
    };
    const value = await body(tx, opened?.rows ?? []);
    if (!committed) await runOn(knex, connection, 'commit', []);
    return value;
  } catch (err) {
    // After a failed opening (or a refused commitWith) the transaction may be open and aborted:
    // ROLLBACK ends it either way (with no transaction open Postgres only warns). A broken
    // connection fails here too; the pool validates it before lending it again.
    await runOn(knex, connection, 'rollback', []).catch(() => undefined);
    throw err;
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

const KEY_LIKE = /^[\w.-]*$/;

/** `?` → the literal, `??` → the identifier (a dotted name quoted part by part). */
function fillLiterals(sql: string, literals: readonly OpeningLiteral[], connection: PgConnection): string {
  let i = 0;
  const out = sql.replace(/\?\?|\?/g, (mark) => {
    if (i >= literals.length) throw new Error('directTransaction: fewer literals than placeholders');
    const value = literals[i++]!;
    if (mark === '??') {
      if (typeof value !== 'string') throw new Error('directTransaction: an identifier must be a string');
      return value.split('.').map((part) => connection.escapeIdentifier(part)).join('.');
    }
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new Error(`directTransaction: ${value} is not a safe integer`);
      return String(value);
    }
    // Keys only (a UUID, a model code): nothing knex could mistake for a placeholder, nothing to unescape.
    if (!KEY_LIKE.test(value)) throw new Error('directTransaction: a literal must be key-like (letters, digits, _ . -)');
    return connection.escapeLiteral(value);
  });
  if (i !== literals.length) throw new Error('directTransaction: more literals than placeholders');
  return out;
}
