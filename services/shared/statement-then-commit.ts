import pg from 'pg';
import type { PgResult } from './pg-statement.js';

/**
 * A transaction's last statement and its COMMIT in one message (issue 18): the statement's Parse
 * (when its connection has not prepared it yet), Bind, Describe and Execute, then COMMIT's Parse,
 * Bind and Execute, and one Sync. One write and one wait instead of two, on the hottest
 * transaction (a series' numbering holds the series' lock until its commit).
 *
 * The protocol's own semantics decide what happened: when the statement fails, the server skips
 * everything up to the Sync, so COMMIT never runs and the transaction stays open and aborted (the
 * caller rolls it back); when COMMIT itself fails, the transaction was rolled back. Either way the
 * server answered ERROR and nothing was committed: `ServerRefused`. Anything else (the connection
 * lost, a FATAL) leaves the outcome unknown, and is passed on as it came.
 *
 * Built on node-postgres's Query (the same extension point as pg-cursor): only the end of its
 * extended-protocol exchange changes, so its value mapping, prepared statements and result parsing
 * are its own. It answers the statement's result (the COMMIT's is dropped).
 */
type Connection = {
  execute(config: { portal?: string; rows?: number }): void;
  parse(config: { text: string; name?: string }): void;
  bind(config: Record<string, unknown>): void;
  sync(): void;
};

const QueryBase = (pg as unknown as { Query: new (config: object, values?: unknown, callback?: (err: Error | null, result: unknown) => void) => object }).Query;

class QueryThenCommit extends QueryBase {
  declare portal: string;

  /** Query's last step (after Bind and Describe): Execute and Sync, with COMMIT between them. */
  _getRows(connection: Connection, rows?: number): void {
    if (rows) throw new Error('statement-then-commit: no row limit (its portal must finish in one Execute)');
    connection.execute({ portal: this.portal });
    connection.parse({ text: 'commit' });
    connection.bind({});
    connection.execute({});
    connection.sync();
  }
}

/** What the server answered ERROR to (the statement or COMMIT): nothing of the transaction was committed. */
export class ServerRefused extends Error {
  /** The server's SQLSTATE (23505 for a number another document holds, say). */
  readonly code: string;

  constructor(refusal: Error & { code: string }) {
    super(refusal.message, { cause: refusal });
    this.name = 'ServerRefused';
    this.code = refusal.code;
  }
}

/** An ErrorResponse of severity ERROR (not FATAL or PANIC, which end the session: then nothing is certain). */
export function refusedByServer(err: unknown): err is Error & { code: string } {
  return err instanceof pg.DatabaseError && err.severity === 'ERROR';
}

interface CommittingConnection {
  query(query: object): unknown;
}

/** Runs `text` with `values` and COMMIT in one message on a connection inside an open transaction. */
export function statementThenCommit(connection: CommittingConnection, config: { text: string; values: unknown[]; name?: string }): Promise<PgResult> {
  return new Promise((resolve, reject) => {
    // Always the extended protocol: a statement without values would otherwise go as a simple
    // query, which never reaches _getRows (and so would never send COMMIT).
    connection.query(new QueryThenCommit({ ...config, queryMode: 'extended' }, undefined, (err, results) => {
      if (err) return reject(refusedByServer(err) ? new ServerRefused(err) : err);
      // Two results, the statement's and COMMIT's (node-postgres's multi-statement form).
      resolve((Array.isArray(results) ? results[0] : results) as PgResult);
    }));
  });
}
