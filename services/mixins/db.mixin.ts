import type { Knex } from 'knex';
import type { Service, ServiceSchema } from 'moleculer';
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
    async started(this: Service) {
      // Moleculer types a hook's `this` as the bare Service; this mixin is what gives it knex.
      const self = this as Service & DbMethods;
      const { config } = runtimeOf(self.broker);
      useDatabaseLogger(self.broker.getLogger('database'));
      self.knex = await getKnex(config);
      await migrateSchema(self.knex, opts.schema, opts.migrations);
    },
  };
}
