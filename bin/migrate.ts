import { loadConfig } from '../config.js';
import { getKnex, closeAllKnex } from '../services/shared/database.js';
import { migrateSchema } from '../services/shared/migrations.js';
import { ALL_MIGRATIONS } from '../migrations/index.js';

/**
 * `npm run migrate`: brings every service schema up to date on DATABASE_URL (or the embedded
 * PGlite). A failure is one line on stderr and exit code 1, not a stack trace: the usual one is the
 * embedded database held by a running `npm start`, which migrates its own schemas when it starts.
 */
const config = loadConfig();
try {
  const knex = await getKnex(config);
  const report: Record<string, string[]> = {};
  for (const [schema, migrations] of Object.entries(ALL_MIGRATIONS)) {
    report[schema] = await migrateSchema(knex, schema, migrations);
  }
  console.log(JSON.stringify({ database: config.databaseUrl ? 'postgres' : `pglite:${config.pgliteDir}`, applied: report }, null, 2));
} catch (err) {
  console.error(`migrate: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeAllKnex().catch(() => undefined);
}
