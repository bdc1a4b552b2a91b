import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Service, ServiceSchema } from 'moleculer';
import type { Migration } from '../shared/migrations.js';
import type { DbMethods } from './db.mixin.js';
import { runtimeOf } from '../shared/runtime.js';
import { LogThrottle } from '../shared/log-throttle.js';
import { metricsOf } from '../shared/metrics.js';
import { PRODUCT_CLASS_CHANNEL } from '../shared/product-class-event.js';
import { prepared } from '../shared/prepared.js';
import { runStatement } from '../shared/pg-statement.js';

/**
 * The Streams channel public events travelled on before the relay called the dispatcher directly;
 * the dispatcher still consumes it, so events an earlier version published there during a rolling
 * upgrade are delivered. Outbox rows keep the name in their `channel` column.
 */
export const EVENTS_CHANNEL = 'fiscal.events';

/**
 * `partnerId` of a platform-wide event that belongs to no single partner (`sefaz.status.changed`):
 * the webhook dispatcher delivers it to every partner subscribed to its type.
 */
export const ALL_SUBSCRIBERS = '*';

/** How long a relay owns a claimed row before another relay may take it over. */
const CLAIM_MS = 60_000;
/** Rows of one channel claimed and handed over per round. */
const CLAIM_BATCH = 100;
/** The dispatcher action that stores the deliveries of a list of events (webhook-dispatcher.service.ts). */
export const ACCEPT_EVENTS_ACTION = 'v1.webhook-dispatcher.acceptEvents';
/**
 * The action that stores each channel's events in its consumer's own database and answers the ids
 * it took. A row of a channel missing here is a programming error: it is never claimed and stays pending.
 */
const CHANNEL_CONSUMERS: Readonly<Record<string, string>> = {
  [EVENTS_CHANNEL]: ACCEPT_EVENTS_ACTION,
  // Product classes sent in an accepted note (services/shared/product-class-event.ts).
  [PRODUCT_CLASS_CHANNEL]: 'v1.classification.acceptProductClassEvents',
};
/** Shorter than a claim, so a relay never waits on a call past its ownership of the rows. */
const RELAY_TIMEOUT_MS = 30_000;
/** How long a handed-off event waits for others to go with it (a webhook is sent this much later at most). */
const HANDOFF_COALESCE_MS = 20;
const RELAY_LOG_EVERY_MS = 60_000;

/** A public event as API.md, Events > Payload, plus the partner it belongs to. */
export interface OutboxEvent {
  id: string;
  type: string;
  timestamp: string;
  partnerId: string;
  data: Record<string, unknown>;
}

/** Migration creating `<schema>.outbox`; list it in the service's migrations. */
export const outboxMigration: Migration = {
  name: '000_outbox',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('outbox', (t) => {
      t.uuid('id').primary();
      t.string('channel', 100).notNullable();
      t.jsonb('payload').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('published_at', { useTz: true });
      t.integer('attempts').notNullable().defaultTo(0);
      /** A relay claimed the row until then (it publishes outside any transaction). */
      t.timestamp('claimed_until', { useTz: true });
      t.index(['published_at', 'created_at']);
    });
  },
};

export interface OutboxMethods {
  /** Writes an event in the caller's transaction; it is published only after commit. */
  enqueueEvent(trx: Knex | Knex.Transaction, event: Omit<OutboxEvent, 'id' | 'timestamp'> & { id?: string; timestamp?: string }): Promise<OutboxEvent>;
  /**
   * The same row as a writable CTE (`<name> as (insert …)`) for the caller to put in a statement
   * of its transaction (issue 18: a round trip less on a hot path); `written()` once it committed.
   */
  eventCte(name: string, event: Omit<OutboxEvent, 'id' | 'timestamp'>): OutboxCte;
  /**
   * Several events in one writable CTE, for a statement that commits by itself (no explicit
   * transaction), each written only if its `key` is among the `id`s an earlier CTE of the
   * statement (`keysIn`) returned: a statement that changes several documents writes the events
   * of those it changed. The rows are written already claimed by this node, and `written(keys)`,
   * called once the statement returned (so committed), hands the events of the keys it changed to
   * the consumer from memory: no claiming statement, and no wait for the next poll. If this node
   * stops before the consumer took them, the claim lapses and any relay offers the rows again, as
   * after a crash mid-relay.
   */
  eventsCte(name: string, events: ReadonlyArray<{ key: string; event: Omit<OutboxEvent, 'id' | 'timestamp'> }>, keysIn: string): OutboxRowsCte;
  /** Hands over what was handed off, then claims and relays every pending row (tests and polls). */
  flushOutbox(): Promise<number>;
}

export interface OutboxCte {
  sql: string;
  bindings: Knex.Value[];
  /** The row was written and committed: nudges the relay (as enqueueEvent does). */
  written(): void;
}

export interface OutboxRowsCte {
  sql: string;
  bindings: Knex.Value[];
  /** The statement returned (committed): hands over the events of `keys`, the ones it wrote. */
  written(keys: ReadonlySet<string>): void;
}

/**
 * Transactional outbox: events are rows committed with the state change that caused them, then
 * relayed to the webhook dispatcher, which stores their deliveries in Postgres before the row is
 * marked published. A crash after commit and before that only delays the event: the relay picks
 * unpublished rows up again, on any replica (rows are claimed with SKIP LOCKED). Nothing between
 * the two databases holds an event only in memory or Redis. Consumers deduplicate by event id.
 */
/** A service with this mixin (and DbMixin), as its methods and hooks below see it. */
type WithOutbox = Service & DbMethods & OutboxMethods & {
  outboxTimer?: NodeJS.Timeout;
  outboxMetrics?: (() => void)[];
  outboxStopping?: boolean;
  outboxFlushing?: boolean;
  outboxAgain?: boolean;
  outboxRound?: Promise<unknown>;
  outboxLogThrottle?: LogThrottle;
  /** Events written claimed by this node (eventsCte), waiting for the next round. */
  outboxHandoff?: RelayedRow[];
  /** The round that will deliver them, once the events of the same moment have joined. */
  outboxHandoffTimer?: NodeJS.Timeout;
  /** A round should also claim pending rows from the table (the timer, a nudge, a flush). */
  outboxPollWanted?: boolean;
  deliverOutboxEvents(channel: string, events: OutboxEvent[]): Promise<string[]>;
  handOffEvents(rows: RelayedRow[]): void;
  relayRows(rows: RelayedRow[]): Promise<{ published: number; stalled: Set<string> }>;
  pollOutbox(): Promise<number>;
  deliverHandedOff(): Promise<number>;
  scheduleOutboxFlush(poll?: boolean): void;
};

/** A row a relay holds (claimed from the table, or written claimed and handed off): what it hands over. */
interface RelayedRow {
  id: string;
  channel: string;
  event: OutboxEvent;
}

/** An outbox row as the relay reads it back (`payload` is parsed by pg, a string under some drivers). */
interface OutboxRow {
  id: string;
  channel: string;
  payload: OutboxEvent | string;
  created_at: Date | string;
}

/** The one shape of an outbox row, whichever way it is written (an insert, or a writable CTE). */
function outboxRow(now: Date, event: Omit<OutboxEvent, 'id' | 'timestamp'> & { id?: string; timestamp?: string }) {
  const full: OutboxEvent = { id: event.id ?? randomUUID(), timestamp: event.timestamp ?? now.toISOString(), type: event.type, partnerId: event.partnerId, data: event.data };
  return { full, row: { id: full.id, channel: EVENTS_CHANNEL, payload: JSON.stringify(full), created_at: now } };
}

export function OutboxMixin(opts: { schema: string; pollMs?: number }): Partial<ServiceSchema> {
  const table = `${opts.schema}.outbox`;
  return {
    methods: {
      async enqueueEvent(this: WithOutbox, trx: Knex | Knex.Transaction, event: Omit<OutboxEvent, 'id' | 'timestamp'> & { id?: string; timestamp?: string }): Promise<OutboxEvent> {
        const { full, row } = outboxRow(runtimeOf(this.broker).clock.now(), event);
        await trx(table).insert(row);
        // Nudge the relay once the caller's transaction had a chance to commit.
        setImmediate(() => this.scheduleOutboxFlush());
        return full;
      },
      eventCte(this: WithOutbox, name: string, event: Omit<OutboxEvent, 'id' | 'timestamp'>): OutboxCte {
        const { row } = outboxRow(runtimeOf(this.broker).clock.now(), event);
        return {
          sql: `${name} as (insert into ?? (id, channel, payload, created_at) values (?, ?, ?, ?))`,
          bindings: [table, row.id, row.channel, row.payload, row.created_at],
          written: () => { setImmediate(() => this.scheduleOutboxFlush()); },
        };
      },
      eventsCte(this: WithOutbox, name: string, events: ReadonlyArray<{ key: string; event: Omit<OutboxEvent, 'id' | 'timestamp'> }>, keysIn: string): OutboxRowsCte {
        const now = runtimeOf(this.broker).clock.now();
        const claimedUntil = new Date(now.getTime() + CLAIM_MS);
        const rows = events.map(({ key, event }) => ({ key, ...outboxRow(now, event) }));
        // The first row's casts type the VALUES list's columns.
        const values = rows.map((_, i) => (i === 0 ? '(?::text, ?::uuid, ?::text, ?::jsonb, ?::timestamptz, ?::timestamptz, 1)' : '(?, ?, ?, ?, ?, ?, 1)')).join(', ');
        return {
          sql: `${name} as (insert into ?? (id, channel, payload, created_at, claimed_until, attempts)
            select v.id, v.channel, v.payload, v.created_at, v.claimed_until, v.attempts from (values ${values}) as v (key, id, channel, payload, created_at, claimed_until, attempts)
            where v.key in (select id::text from ${keysIn}))`,
          bindings: [table, ...rows.flatMap((r) => [r.key, r.row.id, r.row.channel, r.row.payload, r.row.created_at, claimedUntil])],
          written: (keys) => this.handOffEvents(rows.filter((r) => keys.has(r.key)).map((r) => ({ id: r.row.id, channel: r.row.channel, event: r.full }))),
        };
      },
      /**
       * Events whose rows this node wrote claimed and committed: the ones handed off within a few
       * milliseconds go to their consumer together and are marked published in one statement
       * (issue 18: one statement per busy moment, not per note); their rows are claimed by this
       * node meanwhile.
       */
      handOffEvents(this: WithOutbox, rows: RelayedRow[]) {
        if (!rows.length) return;
        (this.outboxHandoff ??= []).push(...rows);
        this.outboxHandoffTimer ??= setTimeout(() => {
          this.outboxHandoffTimer = undefined;
          this.scheduleOutboxFlush(false);
        }, HANDOFF_COALESCE_MS);
      },
      async flushOutbox(this: WithOutbox): Promise<number> {
        // After a round in flight: it may hold handed-off rows this poll could not claim.
        await this.outboxRound;
        return this.pollOutbox();
      },
      async pollOutbox(this: WithOutbox): Promise<number> {
        if (!this.knex) return 0;
        let total = await this.deliverHandedOff();
        // A channel whose consumer failed (or left rows out) this round is left out of its next
        // claims: with any number of its rows pending it never holds another channel's events back.
        const stalled = new Set<string>();
        for (;;) {
          const channels = Object.keys(CHANNEL_CONSUMERS).filter((c) => !stalled.has(c));
          if (!channels.length) return total;
          const now = runtimeOf(this.broker).clock.now();
          // Claim in one statement of its own (its own implicit transaction), publish after it: a
          // handler in this same process may need the database (PGlite has one connection), and no
          // lock is held across I/O. SKIP LOCKED lets replicas claim disjoint rows; the lease
          // (claimed_until) keeps them off other relays' claims until it lapses (issue 18: one round
          // trip instead of BEGIN, select, update, COMMIT).
          const due = this.knex(table).select('id').whereIn('channel', channels).whereNull('published_at')
            .andWhere((q: Knex.QueryBuilder) => q.whereNull('claimed_until').orWhere('claimed_until', '<', now))
            .orderBy('created_at').limit(CLAIM_BATCH).forUpdate().skipLocked();
          // Prepared (services/shared/prepared.ts): the text has one shape per set of channels.
          const claimed: OutboxRow[] = await prepared(this.knex(table).whereIn('id', due)
            .update({ claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: this.knex.raw('attempts + 1') })
            .returning('*'));
          // RETURNING follows no order: events are handed over oldest first, as they were written.
          const rows = claimed.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
          if (!rows.length) return total;
          const relayed = await this.relayRows(rows.map((row) => ({ id: row.id, channel: row.channel, event: typeof row.payload === 'string' ? JSON.parse(row.payload) as OutboxEvent : row.payload })));
          for (const channel of relayed.stalled) stalled.add(channel);
          total += relayed.published;
          if (rows.length < CLAIM_BATCH) return total;
        }
      },
      /** The handed-off events, in batches, oldest first. */
      async deliverHandedOff(this: WithOutbox): Promise<number> {
        let total = 0;
        while (this.outboxHandoff?.length) total += (await this.relayRows(this.outboxHandoff.splice(0, CLAIM_BATCH))).published;
        return total;
      },
      /**
       * Hands rows this relay holds to their channels' consumers, marks published what each took
       * and releases the rest for the next poll (one statement each). Answers the channels whose
       * consumer failed or left rows out.
       */
      async relayRows(this: WithOutbox, rows: RelayedRow[]): Promise<{ published: number; stalled: Set<string> }> {
        const stalled = new Set<string>();
        const byChannel = new Map<string, RelayedRow[]>();
        for (const row of rows) byChannel.set(row.channel, [...(byChannel.get(row.channel) ?? []), row]);
        const accepted = new Set<string>();
        for (const [channel, group] of byChannel) {
          try {
            const took = new Set<string>(await this.deliverOutboxEvents(channel, group.map((row) => row.event)));
            for (const id of took) accepted.add(id);
            // Rows the consumer left out (it could not store them) wait for the next poll.
            if (group.some((row) => !took.has(row.id))) stalled.add(channel);
          } catch (err) {
            stalled.add(channel);
            // The consumer not running, restarting or its database down: the rows stay pending and
            // are offered again on the next poll. Logged once a minute, not on every poll.
            const log = (this.outboxLogThrottle ??= new LogThrottle(RELAY_LOG_EVERY_MS)).take(`relay:${channel}`);
            if (log) this.logger.warn({ err: (err as Error).message, channel, events: group.length, failuresSinceLastWarning: log.suppressed }, 'outbox relay: the consumer did not take the events; they stay pending');
          }
        }
        const published = rows.map((r) => r.id).filter((id) => accepted.has(id));
        const failed = rows.map((r) => r.id).filter((id) => !accepted.has(id));
        // Once per handed-off note: sent without knex's runner, prepared for the usual few ids.
        const ids = (list: string[]) => list.map(() => '?').join(', ');
        if (published.length) {
          await runStatement(this.knex, `update ?? set published_at = ?, claimed_until = null where id in (${ids(published)})`,
            [table, runtimeOf(this.broker).clock.now(), ...published], { prepare: published.length <= 4 });
        }
        if (failed.length) await this.knex(table).whereIn('id', failed).update({ claimed_until: null });
        return { published: published.length, stalled };
      },
      /**
       * Hands a channel's events to its consumer (the webhook dispatcher for public events) and returns
       * the ids it has stored in its own database (a request/response call, not a fire-and-forget message): only those
       * outbox rows are marked published. Redis Streams used to carry these events, and the row counted
       * as published on XADD, so a Redis that restarted empty lost them (issue 20, defect 5). The
       * call is the same with or without a transporter. At-least-once: a timeout after the
       * dispatcher stored them makes the next poll offer them again, and deliveries are unique per
       * (partner, event id).
       */
      async deliverOutboxEvents(this: WithOutbox, channel: string, events: OutboxEvent[]): Promise<string[]> {
        const action = CHANNEL_CONSUMERS[channel];
        if (!action) throw new Error(`outbox: no consumer for channel ${channel}`);
        const res: { accepted: string[] } = await this.broker.call(action, { events }, { timeout: RELAY_TIMEOUT_MS, retries: 0 });
        return res.accepted;
      },
      /** One round at a time; `poll: false` (a hand-off) delivers what was handed off without claiming from the table. */
      scheduleOutboxFlush(this: WithOutbox, poll = true) {
        if (this.outboxStopping) return;
        if (poll) this.outboxPollWanted = true;
        if (this.outboxFlushing) { this.outboxAgain = true; return; }
        this.outboxFlushing = true;
        const polling = !!this.outboxPollWanted;
        this.outboxPollWanted = false;
        this.outboxRound = (polling ? this.pollOutbox() : this.deliverHandedOff())
          .catch((err: Error) => {
            const log = (this.outboxLogThrottle ??= new LogThrottle(RELAY_LOG_EVERY_MS)).take('round');
            if (log) this.logger.warn({ err: err.message, failuresSinceLastWarning: log.suppressed }, 'outbox relay failed; will retry');
          })
          .finally(() => {
            this.outboxFlushing = false;
            if (this.outboxAgain) { this.outboxAgain = false; this.scheduleOutboxFlush(false); }
          });
      },
    },
    started(this: Service) {
      // Moleculer types a lifecycle hook's `this` as the bare Service.
      const self = this as WithOutbox;
      self.outboxTimer = setInterval(() => self.scheduleOutboxFlush(), opts.pollMs ?? 1_000);
      self.outboxTimer.unref?.();
      // Outbox lag: how long the oldest event of this schema has waited for its consumer.
      const metrics = metricsOf(self.broker);
      const pending = () => self.knex(table).whereNull('published_at').first(self.knex.raw('count(*)::int as n'), self.knex.raw('min(created_at) as oldest'));
      self.outboxMetrics = [
        metrics.addSource(metrics.outboxLag, async (set) => {
          const row = await pending();
          const age = row?.oldest ? (runtimeOf(self.broker).clock.now().getTime() - new Date(row.oldest).getTime()) / 1000 : 0;
          set({ schema: opts.schema }, Math.max(0, age));
        }),
        metrics.addSource(metrics.outboxPending, async (set) => set({ schema: opts.schema }, Number((await pending())?.n ?? 0))),
      ];
    },
    async stopped(this: Service) {
      const self = this as WithOutbox;
      for (const remove of self.outboxMetrics ?? []) remove();
      self.outboxStopping = true;
      clearInterval(self.outboxTimer);
      clearTimeout(self.outboxHandoffTimer);
      // The round in flight releases its claims before the database pool closes.
      await self.outboxRound;
      // Handed off and not delivered yet: released, so another node's relay offers them at once
      // rather than when their claim lapses.
      const held = (self.outboxHandoff ?? []).splice(0).map((r) => r.id);
      if (held.length) await self.knex(table).whereIn('id', held).update({ claimed_until: null }).catch(() => undefined);
    },
  };
}
