import type { Knex } from 'knex';

/**
 * Issue 18: a note's signed XML, its nfeProc and its request are stored out of line and compressed
 * by Postgres (TOAST) once a row passes ~2 KB. The default method, pglz, took ~0.3 ms of the
 * server's CPU per 10 KB of NF-e XML (5,000 inserts: 1.5 s); lz4 took 0.04-0.07 ms and stored the
 * same XML in about the same space (5,752 against 5,556 bytes for 10,742). Values written before
 * keep their method: Postgres reads both.
 *
 * Only where the server was built with lz4 (PGlite is not; Debian's and the official images are):
 * elsewhere the columns keep pglz and nothing changes.
 */
export async function compressWithLz4(knex: Knex, schema: string, columns: Readonly<Record<string, readonly string[]>>): Promise<void> {
  const { rows } = await knex.raw(`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`);
  if (!rows[0]?.lz4) return;
  for (const [table, names] of Object.entries(columns)) {
    // A change of the catalog only: no row is rewritten.
    await knex.raw(`alter table ??.?? ${names.map(() => 'alter column ?? set compression lz4').join(', ')}`, [schema, table, ...names]);
  }
}
