import type { Migration } from '../../services/shared/migrations.js';
import { outboxMigration } from '../../services/mixins/outbox.mixin.js';

/** Tables of the contingency-monitor service (schema `monitor`). */
export const migrations: Migration[] = [
  outboxMigration,
  {
    name: '001_authority_status',
    async up(knex, schema) {
      // One row per (UF, ambiente): the last state the authority confirmed, our last own failure,
      // and the polling schedule. A node claims a due row with FOR UPDATE SKIP LOCKED, moves
      // next_check_at one interval ahead and takes a lease (lease_token) for the call, so one
      // node polls a given UF per interval whatever the number of replicas.
      await knex.schema.withSchema(schema).createTable('authority_status', (t) => {
        t.string('uf', 2).notNullable();
        t.string('ambiente', 16).notNullable(); // producao | homologacao
        t.string('status', 8); // up | down; null until the authority confirmed one
        t.integer('c_stat');
        t.text('x_motivo');
        t.timestamp('checked_at', { useTz: true }); // answer that confirmed the current state
        t.timestamp('changed_at', { useTz: true }); // last confirmed transition (or first observation)
        t.timestamp('last_failure_at', { useTz: true });
        t.string('last_failure_reason', 40);
        t.text('last_failure_detail');
        t.integer('consecutive_failures').notNullable().defaultTo(0);
        t.timestamp('next_check_at', { useTz: true }).notNullable();
        t.uuid('lease_token');
        t.timestamp('lease_until', { useTz: true });
        t.string('leased_by', 200);
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.primary(['uf', 'ambiente']);
        t.index(['next_check_at']);
      });
    },
  },
];
