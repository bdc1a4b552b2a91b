import { loadConfig } from '../config.js';
import { getKnex, closeAllKnex } from '../services/shared/database.js';
import { migrateSchema } from '../services/shared/migrations.js';
import { ALL_MIGRATIONS } from '../migrations/index.js';

/** `npm run migrate`: brings every service schema up to date on DATABASE_URL (or the embedded PGlite). */
const config = loadConfig();
const knex = await getKnex(config);
const report: Record<string, string[]> = {};
for (const [schema, migrations] of Object.entries(ALL_MIGRATIONS)) {
  report[schema] = await migrateSchema(knex, schema, migrations);
}
console.log(JSON.stringify({ database: config.databaseUrl ? 'postgres' : `pglite:${config.pgliteDir}`, applied: report }, null, 2));
await closeAllKnex();
