import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAttempt, type AttemptOutcome } from '../../lib/webhooks/backoff.js';
import type { PostResult } from './post-webhook.js';

export type DeliveryStatus = 'pending' | 'in_flight' | 'delivered' | 'failed' | 'dead';

/** How many of the oldest due deliveries a fair claim chooses from (claimDue, perPartner). */
const FAIR_CLAIM_HEAD = 500;

/** A delivery claimed by this node: one attempt to POST, outside any transaction. */
export interface ClaimedAttempt {
  deliveryId: string;
  attemptId: string;
  attemptInSchedule: number;
  maxAttempts: number;
  partnerId: string;
  eventType: string;
  body: string;
  url: string | null;
  secretSealed: { keyId: string; sealed: string } | null;
}

export interface AttemptView {
  id: string;
  number: number;
  startedAt: string;
  finishedAt: string | null;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
}

export interface DeliveryView {
  deliveryId: string;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  createdAt: string;
  deliveredAt: string | null;
  deadAt: string | null;
  attempts: AttemptView[];
}

/** A delivery to record: one event for one partner. */
export interface NewDelivery {
  partnerId: string;
  eventId: string;
  type: string;
  body: string;
  maxAttempts: number;
  now: Date;
  id?: string;
}

const deliveryRow = (row: NewDelivery) => ({
  id: row.id ?? randomUUID(), partner_id: row.partnerId, event_id: row.eventId, event_type: row.type, body: row.body, status: 'pending',
  max_attempts: row.maxAttempts, attempts: 0, next_attempt_at: row.now, created_at: row.now, updated_at: row.now,
});

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/**
 * Postgres side of the dispatcher: the persisted schedule. Every method is one short transaction
 * and none calls anything outside the database while it holds locks (FOUNDATION.md, Storage).
 */
export class DeliveryStore {
  constructor(private readonly knex: Knex, private readonly schema: string) {}

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /** Records an event for a partner; the unique (partner, event id) makes redelivery a no-op. */
  async enqueue(row: NewDelivery): Promise<string | null> {
    const values = deliveryRow(row);
    const inserted = await this.knex(this.t('deliveries')).insert(values).onConflict(['partner_id', 'event_id']).ignore().returning('id');
    return inserted.length ? values.id : null;
  }

  /**
   * Records deliveries of several events in one statement (a batch from a relay); those already
   * recorded are kept as they are. All or none: a row that cannot be stored fails the statement.
   * Returns how many were new.
   */
  async enqueueMany(rows: readonly NewDelivery[]): Promise<number> {
    if (!rows.length) return 0;
    const inserted = await this.knex(this.t('deliveries')).insert(rows.map(deliveryRow)).onConflict(['partner_id', 'event_id']).ignore().returning('id');
    return inserted.length;
  }

  /**
   * Claims due attempts with FOR UPDATE SKIP LOCKED, in one statement (issue 18: one round trip
   * instead of a transaction of five): each claimed row is marked in flight with a lease and gets
   * its attempt row, with the partner's current URL and secret read alongside; the POST happens
   * after commit. A row whose lease expired (its node died mid-POST) is claimed again: the
   * interrupted attempt is closed as failed and counts, so a crash never grants extra attempts.
   * One that had used its last attempt is not sent again but finished as the schedule says,
   * by a second statement on that rare path only.
   */
  async claimDue(opts: {
    now: Date; leaseMs: number; nodeId: string; limit: number; onlyId?: string;
    /** Fairness: at most `max` attempts of one partner in flight, counting the caller's `inFlight` (partner → attempts). */
    perPartner?: { max: number; inFlight: ReadonlyMap<string, number> };
  }): Promise<ClaimedAttempt[]> {
    const { now } = opts;
    const deliveries = this.t('deliveries');
    const isDue = (w: Knex.QueryBuilder) => w.where((a) => a.where('status', 'pending').andWhere('next_attempt_at', '<=', now))
      .orWhere((b) => b.where('status', 'in_flight').andWhere('locked_until', '<=', now));
    // The due condition stays on the locking query itself: re-checked on the row's latest version,
    // a row another node claimed meanwhile is never claimed twice.
    const due = this.knex(deliveries).select('id', 'status', 'attempts', 'max_attempts')
      .where(isDue)
      .orderBy('next_attempt_at').limit(opts.limit).forUpdate().skipLocked();
    if (opts.onlyId) due.andWhere('id', opts.onlyId);
    if (opts.perPartner) {
      // Among the oldest due rows of partners with a free slot, each partner's first ones up to its
      // free slots: a partner with a backlog (say, a receiver that never answers) cannot fill the
      // claim nor, once at its bound, hide the others behind its rows; the bounded head keeps the
      // window's cost flat however long that backlog is.
      const { max, inFlight } = opts.perPartner;
      const full = [...inFlight].filter(([, n]) => n >= max).map(([partner]) => partner);
      const busy = JSON.stringify([...inFlight].map(([partner_id, n]) => ({ partner_id, n })));
      const head = this.knex(deliveries).select('id', 'partner_id', 'next_attempt_at').where(isDue).orderBy('next_attempt_at').limit(FAIR_CLAIM_HEAD);
      if (full.length) head.whereNotIn('partner_id', full);
      const ranked = this.knex.select('id', 'partner_id', this.knex.raw('row_number() over (partition by partner_id order by next_attempt_at) as rn')).from(head.as('head'));
      due.whereIn('id', this.knex.select('r.id').from(ranked.as('r'))
        .leftJoin(this.knex.raw('jsonb_to_recordset(?::jsonb) as busy(partner_id text, n int)', [busy]), 'busy.partner_id', 'r.partner_id')
        .whereRaw('r.rn <= ? - coalesce(busy.n, 0)', [max]));
    }
    const dueSql = due.toSQL();
    // Writable CTEs all see the rows as `due` found them, and each row is written by one of them only.
    const { rows } = await this.knex.raw(`
      with due as (${dueSql.sql}),
      interrupted as (
        update ?? a set finished_at = ?, error = 'interrompida: o nó parou durante o envio'
        from due where a.delivery_id = due.id and due.status = 'in_flight' and a.finished_at is null
      ),
      claimed as (
        update ?? d set status = 'in_flight', attempts = d.attempts + 1, total_attempts = d.total_attempts + 1,
          locked_until = ?, locked_by = ?, updated_at = ?
        from due where d.id = due.id and (due.status = 'pending' or due.attempts < due.max_attempts)
        returning d.id, d.partner_id, d.event_type, d.body, d.attempts, d.max_attempts, d.total_attempts
      ),
      started as (
        insert into ?? (id, delivery_id, number, url, started_at)
        select gen_random_uuid(), claimed.id, claimed.total_attempts, c.webhook_url, ?
        from claimed left join ?? c on c.partner_id = claimed.partner_id
        returning id, delivery_id, url
      )
      select claimed.*, started.id as attempt_id, started.url, c.secret_sealed, c.secret_key_id, null as exhausted
      from claimed join started on started.delivery_id = claimed.id left join ?? c on c.partner_id = claimed.partner_id
      union all
      select due.id, null, null, null, due.attempts, due.max_attempts, null, null, null, null, null, true
      from due where due.status = 'in_flight' and due.attempts >= due.max_attempts`,
    [...dueSql.bindings, this.t('attempts'), now, deliveries, new Date(now.getTime() + opts.leaseMs), opts.nodeId, now, this.t('attempts'), now, this.t('configs'), this.t('configs')]);
    const claimed: ClaimedAttempt[] = [];
    for (const row of rows as any[]) {
      if (row.exhausted) {
        // Not locked any more: another node may finish it at the same time, with the same outcome.
        // A crash before this leaves it in flight with its lease lapsed, found again by the next claim.
        await this.applyOutcome(this.knex, row.id, afterAttempt(row.attempts, false, now, row.max_attempts), null, 'interrompida', now, { status: 'in_flight', attempts: row.attempts });
        continue;
      }
      claimed.push({
        deliveryId: row.id, attemptId: row.attempt_id, attemptInSchedule: row.attempts, maxAttempts: row.max_attempts, partnerId: row.partner_id,
        eventType: row.event_type, body: row.body, url: row.url ?? null,
        secretSealed: row.secret_sealed ? { keyId: row.secret_key_id, sealed: row.secret_sealed } : null,
      });
    }
    return claimed;
  }

  /**
   * Stores the result of an attempt and the next step of the schedule. Guarded by the lease
   * owner and attempt number: if this node lost its lease meanwhile, only the attempt row is kept.
   */
  async recordResult(c: ClaimedAttempt, nodeId: string, result: PostResult, ok: boolean, now: Date): Promise<AttemptOutcome> {
    const outcome = afterAttempt(c.attemptInSchedule, ok, now, c.maxAttempts);
    await this.knex.transaction(async (trx) => {
      await trx(this.t('attempts')).where({ id: c.attemptId }).update({ finished_at: now, status_code: result.statusCode, latency_ms: result.latencyMs, error: result.error });
      await this.applyOutcome(trx, c.deliveryId, outcome, result.statusCode, result.error, now, { status: 'in_flight', locked_by: nodeId, attempts: c.attemptInSchedule });
    });
    return outcome;
  }

  private async applyOutcome(trx: Knex | Knex.Transaction, id: string, outcome: AttemptOutcome, statusCode: number | null, error: string | null, now: Date, guard: Record<string, unknown> = {}): Promise<void> {
    await trx(this.t('deliveries')).where({ id, ...guard }).update({
      status: outcome.status,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      locked_until: null, locked_by: null,
      last_status_code: statusCode, last_error: error, updated_at: now,
      ...(outcome.status === 'delivered' ? { delivered_at: now } : {}),
      ...(outcome.status === 'dead' ? { dead_at: now } : {}),
    });
  }

  async get(partnerId: string, id: string): Promise<DeliveryView | null> {
    const rows = await this.knex(this.t('deliveries')).where({ partner_id: partnerId, id });
    return (await this.views(rows))[0] ?? null;
  }

  /** Latest deliveries of a partner, newest first (GET /v1/webhooks/logs). */
  async logs(partnerId: string, limit: number): Promise<DeliveryView[]> {
    const rows = await this.knex(this.t('deliveries')).where({ partner_id: partnerId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
    return this.views(rows);
  }

  /** Dead deliveries, most recent first, with the total (GET /v1/webhooks/dlq). */
  async dlq(partnerId: string, limit: number): Promise<{ total: number; items: DeliveryView[] }> {
    const base = () => this.knex(this.t('deliveries')).where({ partner_id: partnerId, status: 'dead' });
    const [{ count }] = await base().count({ count: '*' });
    const rows = await base().orderBy([{ column: 'dead_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
    return { total: Number(count), items: await this.views(rows) };
  }

  /** Puts dead deliveries back on a fresh schedule of MAX_ATTEMPTS starting now. */
  async reschedule(partnerId: string, now: Date, id?: string): Promise<number> {
    const q = this.knex(this.t('deliveries')).where({ partner_id: partnerId, status: 'dead' });
    if (id) q.andWhere({ id });
    return q.update({ status: 'pending', attempts: 0, next_attempt_at: now, dead_at: null, updated_at: now });
  }

  async purgeDead(partnerId: string): Promise<number> {
    return this.knex(this.t('deliveries')).where({ partner_id: partnerId, status: 'dead' }).delete();
  }

  private async views(rows: any[]): Promise<DeliveryView[]> {
    if (!rows.length) return [];
    const attempts: any[] = await this.knex(this.t('attempts')).whereIn('delivery_id', rows.map((r) => r.id)).orderBy('number');
    const byDelivery = new Map<string, AttemptView[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push({ id: a.id, number: a.number, startedAt: iso(a.started_at)!, finishedAt: iso(a.finished_at), statusCode: a.status_code, latencyMs: a.latency_ms, error: a.error });
      byDelivery.set(a.delivery_id, list);
    }
    return rows.map((r) => ({
      deliveryId: r.id, eventId: r.event_id, type: r.event_type, status: r.status, attemptCount: byDelivery.get(r.id)?.length ?? 0,
      nextAttemptAt: iso(r.next_attempt_at), lastStatusCode: r.last_status_code, createdAt: iso(r.created_at)!,
      deliveredAt: iso(r.delivered_at), deadAt: iso(r.dead_at), attempts: byDelivery.get(r.id) ?? [],
    }));
  }
}
