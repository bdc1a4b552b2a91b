import type { ExecutionContext } from 'ava';
import knexLib, { type Knex } from 'knex';
import { createTestDatabase } from './stack.js';
import { migrateSchema, type Migration } from '../../services/shared/migrations.js';

/**
 * A migration test's starting point: a fresh Postgres database with `schema` migrated up to, not
 * including, the migration `name` (as a database deployed before it was), dropped when the test
 * ends. `at` is that migration's index in `migrations`.
 */
export async function migratedBefore(t: ExecutionContext, schema: string, migrations: readonly Migration[], name: string): Promise<{ knex: Knex; at: number }> {
  const db = await createTestDatabase();
  const knex = knexLib({ client: 'pg', connection: db.url });
  t.teardown(async () => { await knex.destroy(); await db.drop(); });
  const at = migrations.findIndex((m) => m.name === name);
  t.true(at > 0);
  await migrateSchema(knex, schema, migrations.slice(0, at));
  return { knex, at };
}
