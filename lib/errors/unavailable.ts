/**
 * Whether an error means a dependency could not be reached (issue 20, defect 7): the database
 * refused or dropped the connection, is shutting down or not accepting connections, or the pool
 * could not get a connection in time. Such a failure is an outage, answered 503
 * SERVICE_UNAVAILABLE with Retry-After, never a 500 "internal error". Reads only the plain fields
 * that survive the transporter (`name`, `code`, `message`).
 */

/** Socket-level failures (Node's errno codes) of a connection to a dependency. */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED',
]);

/**
 * PostgreSQL SQLSTATEs of an unavailable server (Appendix A, PostgreSQL Error Codes): class 08
 * connection exception; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now;
 * 53300 too_many_connections.
 */
const PG_UNAVAILABLE: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * node-postgres reports a connection lost mid-query by message only (no code), which Knex prefixes
 * with the statement (`BEGIN; - Connection terminated unexpectedly`); a pool that could not hand
 * out a connection is Knex's own timeout.
 */
const LOST_CONNECTION = /(^|- )(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Knex: Timeout acquiring a connection)/;

export function isDependencyUnreachable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: unknown; code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (e.name === 'KnexTimeoutError') return true;
  return typeof e.message === 'string' && LOST_CONNECTION.test(e.message);
}
