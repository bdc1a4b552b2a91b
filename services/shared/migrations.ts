import type { Knex } from 'knex';

/** A migration as plain code, listed in order by each service's migrations/<schema>/index.ts. */
export interface Migration {
  name: string;
  up(knex: Knex, schema: string): Promise<void>;
  down?(knex: Knex, schema: string): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a service's migrations into its own schema, with its own knex_migrations table there.
 * Several replicas starting at once race for Knex's migration lock; the losers wait and re-check
 * rather than fail, so any number of nodes can start together.
 */
export async function migrateSchema(knex: Knex, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  await knex.raw('create schema if not exists ??', [schema]).catch(async (err: unknown) => {
    // Two nodes creating the same schema concurrently: the loser sees a unique violation.
    if (!(await knex.raw('select 1 from pg_namespace where nspname = ?', [schema])).rows?.length) throw err;
  });
  const source: Knex.MigrationSource<Migration> = {
    getMigrations: async () => [...migrations],
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({ up: (k: Knex) => m.up(k, schema), down: (k: Knex) => (m.down ? m.down(k, schema) : Promise.resolve()) }),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const [, applied] = await knex.migrate.latest({ migrationSource: source, schemaName: schema, tableName: 'knex_migrations' });
      return applied as string[];
    } catch (err) {
      const locked = err instanceof Error && (err.name === 'MigrationLocked' || /locked|duplicate key|already exists/i.test(err.message));
      if (!locked || attempt > 60) throw err;
      await dropDuplicateLockRows(knex, schema);
      await sleep(250 + Math.random() * 250);
    }
  }
}

/**
 * Two nodes creating the migration tables of a fresh schema at once can both insert Knex's lock
 * row; Knex then takes the lock only when exactly one row flips, so it would report "locked"
 * forever. Keeping the oldest row restores the invariant (a real holder keeps its lock: it flipped
 * every row, and frees every row when done).
 */
async function dropDuplicateLockRows(knex: Knex, schema: string): Promise<void> {
  const table = `${schema}.knex_migrations_lock`;
  await knex(table).whereNotIn('index', knex(table).min('index')).del().catch(() => undefined);
}
