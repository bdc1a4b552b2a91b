import ClientPgLite from 'knex-pglite';

/** The dialect method knex-pglite overrides; knex's typings leave it out of `Client`. */
type ResponseProcessor = new (config: object) => { processResponse(obj: object, runner: unknown): unknown };

/**
 * knex-pglite (0.14) with the row count of `.delete()`. That client names the response's command
 * after knex's method, and knex calls a delete `del`: the Postgres dialect then finds no 'DELETE'
 * and hands back PGlite's raw result ({ rows, fields, affectedRows, … }) where `pg` answers a
 * number. Every `.delete()` count (DELETE /v1/webhooks/dlq's `purged`, the webhook retention
 * batches, the idempotency purge) must be the same number in the embedded mode as on Postgres.
 */
export default class PgLiteClient extends (ClientPgLite as unknown as ResponseProcessor) {
  override processResponse(obj: { method?: string }, runner: unknown): unknown {
    return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
  }
}
