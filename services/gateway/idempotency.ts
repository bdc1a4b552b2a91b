import type { Knex } from 'knex';
import { DomainError } from '../../lib/errors/index.js';
import { runStatement } from '../shared/pg-statement.js';

/** API.md, Limits > Idempotency: the same key within 24 hours returns the original result. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "processing" after this long is taken to have died with its node. */
const STALE_AFTER_MS = 2 * 60 * 1000;
const WAIT_FOR_PEER_MS = 5_000;

export type IdempotencyOutcome =
  /**
   * `firstUse`: no request used this key before within its 24 hours (not even one whose record
   * was released after a 5xx): nothing can be bound to it yet, so the action need not look.
   */
  | { kind: 'proceed'; id: number; firstUse: boolean }
  | { kind: 'replay'; status: number; body: unknown };

export { requestFingerprint as fingerprint } from '../../lib/idempotency/fingerprint.js';

/**
 * What a request finds still "processing" under its key once it waited for it: `refuse` answers
 * 409 IDEMPOTENCIA_EM_ANDAMENTO; `proceed` lets it run, for routes whose action binds the key to
 * what it creates (`idempotency: 'document'`: the emission's unique index), so the action — never
 * this record — decides, and answers what the first request made.
 */
export type WhenBusy = 'refuse' | 'proceed';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Claims (partner, route, key) in Postgres. Exactly one request executes: a concurrent duplicate
 * waits briefly for the first to finish and replays it, or answers 409 while it is still running;
 * a different body under the same key answers 422. This record alone cannot make an emission
 * exactly-once (a 5xx releases it, a dead node's is taken over): emission routes bind the key
 * themselves and pass `proceed`.
 */
export class IdempotencyStore {
  constructor(private readonly knex: Knex, private readonly table: string) {}

  async begin(partnerId: string, route: string, key: string, print: string, now: () => Date, whenBusy: WhenBusy = 'refuse'): Promise<IdempotencyOutcome> {
    const deadline = Date.now() + WAIT_FOR_PEER_MS;
    for (;;) {
      const at = now();
      const lockedUntil = new Date(at.getTime() + STALE_AFTER_MS);
      const expiresAt = new Date(at.getTime() + IDEMPOTENCY_TTL_MS);
      // Every keyed POST starts here (issue 18): sent without knex's builder, prepared once.
      const { rows: inserted } = await runStatement(this.knex,
        `insert into ?? (partner_id, route, key, fingerprint, state, created_at, locked_until, expires_at) values (?, ?, ?, ?, 'processing', ?, ?, ?)
         on conflict (partner_id, route, key) do nothing returning id`,
        [this.table, partnerId, route, key, print, at, lockedUntil, expiresAt], { prepare: true });
      if (inserted.length) return { kind: 'proceed', id: Number(inserted[0].id), firstUse: true };

      const row = await this.knex(this.table).where({ partner_id: partnerId, route, key }).first();
      if (!row) continue; // purged between the two statements
      if (new Date(row.expires_at).getTime() <= at.getTime()) {
        await this.knex(this.table).where({ id: row.id }).del();
        continue;
      }
      if (row.state === 'released') {
        // An earlier request ended without an answer to keep (a 5xx, a passing refusal): this one
        // runs as if it were the first, under its own body, and its action looks for what the
        // earlier one may have bound to the key.
        const taken = await this.knex(this.table).where({ id: row.id, state: 'released' })
          .update({ state: 'processing', fingerprint: print, created_at: at, locked_until: lockedUntil, expires_at: expiresAt });
        if (taken) return { kind: 'proceed', id: Number(row.id), firstUse: false };
        continue;
      }
      if (row.fingerprint !== print) throw new DomainError('IDEMPOTENCIA_CORPO_DIVERGENTE', { idempotencyKey: key });
      if (row.state === 'done') {
        const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
        return { kind: 'replay', status: row.response_status, body };
      }
      if (new Date(row.locked_until).getTime() <= at.getTime()) {
        // The first request's node died; take the key over (compare-and-set on locked_until).
        const taken = await this.knex(this.table)
          .where({ id: row.id, state: 'processing' }).andWhere('locked_until', row.locked_until)
          .update({ locked_until: lockedUntil });
        if (taken) return { kind: 'proceed', id: Number(row.id), firstUse: false };
        continue;
      }
      if (Date.now() >= deadline) {
        if (whenBusy === 'proceed') return { kind: 'proceed', id: Number(row.id), firstUse: false };
        throw new DomainError('IDEMPOTENCIA_EM_ANDAMENTO', { idempotencyKey: key });
      }
      await sleep(100);
    }
  }

  /** Stores a deterministic outcome for replay. */
  async complete(id: number, status: number, body: unknown): Promise<void> {
    await runStatement(this.knex, `update ?? set state = 'done', response_status = ?, response_body = ? where id = ?`, [this.table, status, JSON.stringify(body), id], { prepare: true });
  }

  /**
   * Frees the key after a non-deterministic outcome (5xx, 429, 401, a state still changing) so a
   * retry executes. The row stays, `released`, so that retry knows the key was used (begin's
   * `firstUse` is false) until it expires with its 24 hours.
   */
  async release(id: number): Promise<void> {
    await runStatement(this.knex, `update ?? set state = 'released' where id = ? and state = 'processing'`, [this.table, id], { prepare: true });
  }

  /** How a request ended: its answer kept for replay, or the key freed so a retry runs again. */
  async settle(id: number, replay: boolean, status: number, body: unknown): Promise<void> {
    if (replay) await this.complete(id, status, body);
    else await this.release(id);
  }

  async purgeExpired(now: Date): Promise<number> {
    return this.knex(this.table).where('expires_at', '<', now).del();
  }
}

/**
 * Refusals that describe a passing moment, not the request: replaying them for 24 h would refuse a
 * retry that is meant to succeed once the moment passed (the transmission in flight ended).
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'DOCUMENTO_EM_TRANSMISSAO', 'IDEMPOTENCIA_EM_ANDAMENTO',
  // Another event of the document in flight or awaiting completion (lib/emission/fiscal-events.ts).
  'EVENTO_EM_TRANSMISSAO', 'EVENTO_PENDENTE',
]);

/** Which outcomes are deterministic and so replayed (API.md: "including deterministic 400 rejections"). */
export function isReplayable(status: number, code?: string): boolean {
  if (code !== undefined && TRANSIENT_CODES.has(code)) return false;
  return (status >= 200 && status < 300) || status === 400 || status === 404 || status === 409 || status === 422;
}
