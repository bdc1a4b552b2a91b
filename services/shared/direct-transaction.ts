import type { Knex } from 'knex';

/** What a direct transaction's body runs its statements with: the same `raw` as a knex transaction's. */
export interface DirectTx {
  raw(sql: string, bindings: readonly Knex.RawBinding[]): Knex.Raw;
}

/** The body asks for the transaction to be rolled back and the caller to take its other path. */
export class RollBack extends Error {
  constructor(readonly reason: string) {
    super(`direct transaction rolled back: ${reason}`);
    this.name = 'RollBack';
  }
}

/** A literal for the opening statement: only the kinds a key of a row needs, each checked. */
export type OpeningLiteral = string | number;

interface PgConnection {
  escapeLiteral(value: string): string;
  escapeIdentifier(value: string): string;
}

/** Whether `knex` talks to a Postgres server through node-postgres (not PGlite's single session). */
export function supportsDirectTransactions(knex: Knex): boolean {
  return (knex.client as { dialect?: string }).dialect === 'postgresql' && (knex.client.config as { client?: unknown }).client === 'pg';
}

/**
 * A transaction on one pooled connection, for the hottest one of the product (a note's numbering:
 * issue 18). Two round trips fewer than `knex.transaction` costs it and none of its per-transaction
 * instance: BEGIN travels with the opening statement in one simple-protocol message, so that
 * statement takes no parameters; its `?` placeholders are filled with literals escaped by the
 * driver, and only strings and safe integers are accepted. Every later statement binds its
 * parameters as usual (`tx.raw`). The body's result is committed; any throw rolls back, and a
 * `RollBack` thrown by the body is rethrown for the caller to take its other path.
 *
 * `opening` answers with its rows (a multi-statement message answers one result per statement).
 */
export async function directTransaction<T>(knex: Knex, opening: string, literals: readonly OpeningLiteral[], body: (tx: DirectTx, rows: any[]) => Promise<T>): Promise<T> {
  const connection = await knex.client.acquireConnection() as PgConnection;
  try {
    const sql = `begin; ${fillLiterals(opening, literals, connection)}`;
    const results = await knex.raw(sql).connection(connection);
    const opened = Array.isArray(results) ? results[results.length - 1] : results;
    const tx: DirectTx = { raw: (statement, bindings) => knex.raw(statement, bindings).connection(connection) };
    const value = await body(tx, opened?.rows ?? []);
    await knex.raw('commit').connection(connection);
    return value;
  } catch (err) {
    // After a failed opening the transaction may be open and aborted: ROLLBACK ends it either way
    // (with no transaction open Postgres only warns). A broken connection fails here too; the pool
    // validates it before lending it again.
    await knex.raw('rollback').connection(connection).catch(() => undefined);
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
