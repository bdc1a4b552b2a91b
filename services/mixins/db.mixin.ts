import type { Knex } from 'knex';
import type { ServiceSchema } from 'moleculer';
import { useDatabaseLogger } from '../shared/database-log.js';
import { getKnex } from '../shared/database.js';
import { migrateSchema, type Migration } from '../shared/migrations.js';
import { runtimeOf } from '../shared/runtime.js';

export interface DbMixinOptions {
  /** Postgres schema this service owns; all its tables live there. */
  schema: string;
  migrations: readonly Migration[];
}

/** Methods a service gets from DbMixin (declared for `this` in handlers). */
export interface DbMethods {
  knex: Knex;
  /** Schema-qualified table name of this service: `t('documents')` → `emission.documents`. */
  t(table: string): string;
}

/**
 * Gives a service its own schema, migrated at start. Only this service's tables are reachable
 * through `t()`; another service's data is obtained by calling its actions.
 */
export function DbMixin(opts: DbMixinOptions): Partial<ServiceSchema> {
  return {
    methods: {
      t(table: string): string {
        return `${opts.schema}.${table}`;
      },
    },
    async started(this: any) {
      const { config } = runtimeOf(this.broker);
      useDatabaseLogger(this.broker.getLogger('database'));
      this.knex = await getKnex(config);
      await migrateSchema(this.knex, opts.schema, opts.migrations);
    },
  };
}
