import type { Knex } from 'knex';

/** The part of a pino/Moleculer logger the database log needs. */
export interface DatabaseLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
  debug(obj: Record<string, unknown>, msg: string): void;
}

let current: DatabaseLogger | null = null;

/**
 * The logger Knex's own messages go to (issue 23, defect 6). Knex prints to the console by
 * default: a Postgres connection killed under the pool came out as a bare, coloured
 * "Connection Error: …" line outside the JSON log. Each service node sets it as it starts (one per
 * process in production; db.mixin); a tool without a broker gets JSON lines on stderr.
 */
export function useDatabaseLogger(logger: DatabaseLogger): void {
  current = logger;
}

function emit(level: 'warn' | 'error' | 'debug', message: unknown): void {
  const text = message instanceof Error ? message.message : String(message);
  // The pool validates each connection it hands out: one that the server closed (restart,
  // pg_terminate_backend, network cut) is dropped and replaced, and Knex says so with this prefix.
  const lost = /^Connection Error: /.test(text);
  const fields = { component: 'database', ...(lost ? { reason: text.replace(/^Connection Error: /, '') } : { detail: text }) };
  const msg = lost ? 'database connection lost; the pool replaces it' : 'database client message';
  if (current) current[level](fields, msg);
  else if (level !== 'debug') process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...fields, msg })}\n`);
}

/** Knex's `log` option: every message of the client as a structured line. */
export const knexLog: Knex.Config['log'] = {
  warn: (m: unknown) => emit('warn', m),
  error: (m: unknown) => emit('error', m),
  deprecate: (method: unknown, alternative: unknown) => emit('warn', `${String(method)} is deprecated, use ${String(alternative)}`),
  debug: (m: unknown) => emit('debug', m),
};
