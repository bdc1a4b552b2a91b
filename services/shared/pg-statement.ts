import type { Knex } from 'knex';
import { statementName } from './prepared.js';

/**
 * The hot path's statements sent straight to a node-postgres connection, without knex's query
 * runner (issue 18). Measured on a node under load, knex's own work around each statement (its
 * runner, binding positioning, the pool wrapper, lodash) was ~7 % of the node's CPU for ~6
 * statements per note; what is left here is one pass over the text and the driver's call.
 *
 * The text is written as for `knex.raw`: `?` a value, `??` an identifier (a dotted name quoted part
 * by part by the driver's `escapeIdentifier`), so the same statement runs through `knex.raw` where
 * there is no node-postgres connection (PGlite). Statements must not contain a literal `?` (knex
 * has the same rule for `raw`).
 */

/** What the statements need of a node-postgres `Client` (knex's pooled connection is one). */
export interface PgConnection {
  query(config: { text: string; values?: unknown[]; name?: string }): Promise<PgResult | PgResult[]>;
  escapeIdentifier(value: string): string;
  escapeLiteral(value: string): string;
}

export interface PgResult {
  rows: any[];
  rowCount: number | null;
}

export interface StatementOptions {
  /** A named prepared statement (services/shared/prepared.ts): parsed and planned once per connection. */
  prepare?: boolean;
}

/** `?` → `$n` with its value, `??` → the quoted identifier; one pass. */
export function positional(sql: string, bindings: readonly Knex.RawBinding[], connection: Pick<PgConnection, 'escapeIdentifier'>): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let i = 0;
  const text = sql.replace(/\?\??/g, (mark) => {
    if (i >= bindings.length) throw new Error('statement: fewer bindings than placeholders');
    const value = bindings[i++];
    if (mark === '??') {
      if (typeof value !== 'string') throw new Error('statement: an identifier must be a string');
      return value.split('.').map((part) => connection.escapeIdentifier(part)).join('.');
    }
    values.push(value === undefined ? null : value);
    return `$${values.length}`;
  });
  if (i !== bindings.length) throw new Error('statement: more bindings than placeholders');
  return { text, values };
}

/**
 * Runs one statement on a connection the caller holds (a direct transaction's). Knex's `query`
 * event is emitted when someone listens (the statement-budget tests count statements with it), so
 * nothing sent this way is invisible to them.
 */
export async function runOn(knex: Knex, connection: PgConnection, sql: string, bindings: readonly Knex.RawBinding[], opts: StatementOptions = {}): Promise<PgResult | PgResult[]> {
  return connection.query(statementConfig(knex, connection, sql, bindings, opts));
}

/**
 * What node-postgres sends for a statement (positional text, values, the prepared name), with
 * knex's `query` event emitted as `seen` (default the text itself) when someone listens.
 */
export function statementConfig(knex: Knex, connection: Pick<PgConnection, 'escapeIdentifier'>, sql: string, bindings: readonly Knex.RawBinding[], opts: StatementOptions = {}, seen?: (text: string) => string): { text: string; values: unknown[]; name?: string } {
  const { text, values } = positional(sql, bindings, connection);
  if (knex.listenerCount('query') > 0) knex.emit('query', { sql: seen ? seen(text) : text, bindings: values, method: 'raw' });
  return opts.prepare ? { name: statementName(text), text, values } : { text, values };
}

/** Whether `knex` talks to a Postgres server through node-postgres (not PGlite's single session). */
export function hasPgConnections(knex: Knex): boolean {
  return (knex.client as { dialect?: string }).dialect === 'postgresql' && (knex.client.config as { client?: unknown }).client === 'pg';
}

/**
 * One statement on a pooled connection, outside any transaction; through `knex.raw` on PGlite, or
 * in the transaction `knex` is one (its connection is the transaction's).
 */
export async function runStatement(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[], opts: StatementOptions = {}): Promise<PgResult> {
  if (!hasPgConnections(knex) || (knex as Knex & { isTransaction?: boolean }).isTransaction) return await knex.raw(sql, bindings as Knex.RawBinding[]) as PgResult;
  const connection = await knex.client.acquireConnection() as PgConnection;
  try {
    return await runOn(knex, connection, sql, bindings, opts) as PgResult;
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
