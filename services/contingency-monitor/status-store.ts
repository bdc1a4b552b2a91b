import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AmbienteName, ConfirmedState, Decision, StatusChangedData } from '../../lib/contingency/availability.js';
import { LeasedCache } from '../shared/leased-cache.js';

/** A (UF, ambiente) this node leased for one status call. */
export interface Claim {
  uf: string;
  ambiente: AmbienteName;
  token: string;
}

/** One row as the monitor's actions show it. */
export interface AuthorityStatusView {
  uf: string;
  ambiente: AmbienteName;
  /** null until the authority confirmed a state. */
  status: 'up' | 'down' | null;
  cStat: number | null;
  xMotivo: string | null;
  checkedAt: string | null;
  changedAt: string | null;
  lastFailure: { at: string; reason: string; detail: string | null; consecutive: number } | null;
  nextCheckAt: string;
}

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function viewOf(r: any): AuthorityStatusView {
  return {
    uf: r.uf,
    ambiente: r.ambiente,
    status: r.status ?? null,
    cStat: r.c_stat ?? null,
    xMotivo: r.x_motivo ?? null,
    checkedAt: iso(r.checked_at),
    changedAt: iso(r.changed_at),
    lastFailure: r.last_failure_at ? { at: iso(r.last_failure_at)!, reason: r.last_failure_reason, detail: r.last_failure_detail ?? null, consecutive: r.consecutive_failures } : null,
    nextCheckAt: iso(r.next_check_at)!,
  };
}

function confirmedOf(r: any): ConfirmedState | null {
  if (!r.status) return null;
  return { status: r.status, cStat: r.c_stat, xMotivo: r.x_motivo, checkedAt: iso(r.checked_at)! };
}

export type RecordOutcome = Decision['kind'] | 'stale';

/**
 * Postgres side of the monitor. The schedule lives in the rows, never in a process: a claim moves
 * `next_check_at` one interval ahead and takes a lease under a fresh token in one short
 * transaction (SKIP LOCKED: two nodes claiming at once get disjoint rows); the authority is called
 * after commit; the result is recorded only by the holder of the token, with its outbox event in
 * the same transaction.
 */
export class StatusStore {
  /**
   * `get` is read by every NFC-e emission (the automatic contingency decision: issue 18, a
   * statement per note for a row that changes every few minutes at most). Kept per node for a
   * lease; this node's own writes drop it at once, and a transition recorded on another node
   * drops it through `forget` (the monitor's broadcast), or within the lease if that is lost.
   */
  private readonly views: LeasedCache<AuthorityStatusView | null>;

  constructor(private readonly knex: Knex, private readonly schema: string, opts: { leaseMs?: number } = {}) {
    this.views = new LeasedCache({ leaseMs: opts.leaseMs ?? 0, maxEntries: 128 });
  }

  /** Drops what this node keeps of `uf`/`ambiente` (all of them without arguments). */
  forget(uf?: string, ambiente?: AmbienteName): void {
    if (uf && ambiente) this.views.invalidate([viewKey(uf, ambiente)]);
    else this.views.invalidateAll();
  }

  private get table(): string {
    return `${this.schema}.authority_status`;
  }

  /** Creates the rows of the monitored pairs (due now); existing rows are left as they are. */
  async seed(pairs: { uf: string; ambiente: AmbienteName }[], now: Date): Promise<void> {
    if (!pairs.length) return;
    await this.knex(this.table)
      .insert(pairs.map((p) => ({ uf: p.uf, ambiente: p.ambiente, next_check_at: now, updated_at: now, consecutive_failures: 0 })))
      .onConflict(['uf', 'ambiente']).ignore();
    this.forget();
  }

  /**
   * Leases up to `limit` rows of `ambientes`: those due (`next_check_at <= now`), or with `force`
   * any row matching its filter (an operator's check now). A row whose lease is still running is
   * never taken, forced or not.
   */
  async claim(opts: {
    now: Date; intervalMs: number; leaseMs: number; nodeId: string; limit: number; ambientes: AmbienteName[];
    force?: { uf?: string; ambiente?: AmbienteName };
  }): Promise<Claim[]> {
    const { now } = opts;
    return this.knex.transaction(async (trx) => {
      const q = trx(this.table).select('uf', 'ambiente').whereIn('ambiente', opts.ambientes)
        .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now));
      if (opts.force) {
        if (opts.force.uf) q.where('uf', opts.force.uf);
        if (opts.force.ambiente) q.where('ambiente', opts.force.ambiente);
      } else {
        q.where('next_check_at', '<=', now);
      }
      const rows: { uf: string; ambiente: AmbienteName }[] = await q.orderBy([{ column: 'next_check_at' }, { column: 'uf' }]).limit(opts.limit).forUpdate().skipLocked();
      const claims: Claim[] = [];
      for (const r of rows) {
        const token = randomUUID();
        await trx(this.table).where({ uf: r.uf, ambiente: r.ambiente }).update({
          next_check_at: new Date(now.getTime() + opts.intervalMs),
          lease_token: token,
          lease_until: new Date(now.getTime() + opts.leaseMs),
          leased_by: opts.nodeId,
          updated_at: now,
        });
        claims.push({ uf: r.uf, ambiente: r.ambiente, token });
      }
      return claims;
    });
  }

  /**
   * Records what one status call came to. `decide` runs on the locked row's confirmed state; a
   * transition is stored with its event (`emit`, the outbox insert) in this same transaction. A
   * result whose lease was lost (expired and taken by another node) is dropped: `stale`.
   */
  async record(claim: Claim, now: Date, decide: (previous: ConfirmedState | null) => Decision, emit: (trx: Knex.Transaction, data: StatusChangedData) => Promise<unknown>): Promise<RecordOutcome> {
    return this.writing(claim.uf, claim.ambiente, async (trx) => {
      const row = await trx(this.table).where({ uf: claim.uf, ambiente: claim.ambiente }).forUpdate().first();
      if (!row || row.lease_token !== claim.token) return 'stale' as const;
      const decision = decide(confirmedOf(row));
      const release = { lease_token: null, lease_until: null, leased_by: null, updated_at: now };
      if (decision.kind === 'own-failure') {
        const f = decision.failure;
        const detail = f.cStat !== undefined ? `${f.detail}: ${f.xMotivo ?? ''}` : f.detail;
        await trx(this.table).where({ uf: claim.uf, ambiente: claim.ambiente }).update({
          ...release, last_failure_at: new Date(f.at), last_failure_reason: f.reason, last_failure_detail: detail.slice(0, 1000),
          consecutive_failures: trx.raw('consecutive_failures + 1'),
        });
        return decision.kind;
      }
      const s = decision.state;
      await trx(this.table).where({ uf: claim.uf, ambiente: claim.ambiente }).update({
        ...release, status: s.status, c_stat: s.cStat, x_motivo: s.xMotivo, checked_at: new Date(s.checkedAt), consecutive_failures: 0,
        ...(decision.kind === 'unchanged' ? {} : { changed_at: new Date(s.checkedAt) }),
      });
      if (decision.kind === 'transition') await emit(trx, decision.event);
      return decision.kind;
    });
  }

  /**
   * Records the authority's own answer read by another call (issue 20, defect 3: a 108/109 seen by
   * any call is evidence). Not a check: the schedule and any lease are left alone, and our own
   * failures are not evidence (`own-failure` decisions change nothing). `unmonitored`: no such row.
   */
  async observe(uf: string, ambiente: AmbienteName, now: Date, decide: (previous: ConfirmedState | null) => Decision, emit: (trx: Knex.Transaction, data: StatusChangedData) => Promise<unknown>): Promise<Decision['kind'] | 'unmonitored'> {
    return this.writing(uf, ambiente, async (trx) => {
      const row = await trx(this.table).where({ uf, ambiente }).forUpdate().first();
      if (!row) return 'unmonitored' as const;
      const decision = decide(confirmedOf(row));
      if (decision.kind === 'own-failure') return decision.kind;
      const s = decision.state;
      await trx(this.table).where({ uf, ambiente }).update({
        status: s.status, c_stat: s.cStat, x_motivo: s.xMotivo, checked_at: new Date(s.checkedAt), updated_at: now,
        ...(decision.kind === 'unchanged' ? {} : { changed_at: new Date(s.checkedAt) }),
      });
      if (decision.kind === 'transition') await emit(trx, decision.event);
      return decision.kind;
    });
  }

  /** A transaction that may change a row: what this node keeps of it is dropped once it ended, however it ended. */
  private async writing<T>(uf: string, ambiente: AmbienteName, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    try {
      return await this.knex.transaction(work);
    } finally {
      this.forget(uf, ambiente);
    }
  }

  async get(uf: string, ambiente: AmbienteName): Promise<AuthorityStatusView | null> {
    const view = await this.views.get(viewKey(uf, ambiente), async () => {
      const row = await this.knex(this.table).where({ uf, ambiente }).first();
      return row ? viewOf(row) : null;
    });
    return view ?? null;
  }

  async list(filter: { ambientes: AmbienteName[]; uf?: string; ambiente?: AmbienteName }): Promise<AuthorityStatusView[]> {
    const q = this.knex(this.table).whereIn('ambiente', filter.ambientes).orderBy([{ column: 'ambiente' }, { column: 'uf' }]);
    if (filter.uf) q.where('uf', filter.uf);
    if (filter.ambiente) q.where('ambiente', filter.ambiente);
    return (await q).map(viewOf);
  }
}

const viewKey = (uf: string, ambiente: AmbienteName) => `${uf}/${ambiente}`;
