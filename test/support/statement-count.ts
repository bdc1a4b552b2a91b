import type { Knex } from 'knex';

/**
 * The outbox relay's own statements (claim, publish, release): it runs on its own timer or after
 * the note's answer (a handed-off event), so a budget per note leaves it out. Its publish is sent
 * through knex's builder or as text (services/shared/pg-statement.ts): columns quoted or not.
 */
const RELAY_POLLING = /"emission"\."outbox" (where "channel"|set "?(claimed_until|published_at)\b)|from "emission"\."outbox" where "channel"/;

/**
 * The SQL statements the emission service sent on `knex` while `work` ran (issue 18 counts them per
 * note: each costs ~0.2-0.3 ms of CPU). Statements naming no emission table (another service's,
 * or BEGIN/COMMIT sent alone) and the relay's polling are left out.
 */
export async function emissionStatements<T>(knex: Knex, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const listener = (q: { sql: string }) => { if (q.sql.includes('"emission".') && !RELAY_POLLING.test(q.sql)) statements.push(q.sql); };
  knex.on('query', listener);
  try {
    return { result: await work(), statements };
  } finally {
    knex.off('query', listener);
  }
}

/** The statements, one line each and cut short, for a failing budget's message. */
export function listed(statements: string[]): string {
  return `${statements.length} statements:\n${statements.map((s) => s.slice(0, 120)).join('\n')}`;
}
