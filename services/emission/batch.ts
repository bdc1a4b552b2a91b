import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Model } from '../../lib/nfe/types.js';
import { KeyAlreadyBound } from './document-row.js';

/**
 * The batch queue's state, in Postgres (API.md: "items run through a queue"). The channel
 * `emission.batch` only distributes item ids; a lost message is found again by the sweeper, and
 * a claim (status + claimed_until) makes sure one node works an item at a time.
 */
export const BATCH_CHANNEL = 'emission.batch';
export type ItemStatus = 'QUEUED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
/** A claimed item whose node died is taken over after this long. */
export const CLAIM_MS = 5 * 60_000;
/** A queued item not picked up after this long is sent to the channel again. */
export const REQUEUE_AFTER_MS = 60_000;
export const MAX_ITEM_ATTEMPTS = 5;
/**
 * The stream keeps about this many entries (XADD MAXLEN ~). A consumer group recreated from `0`
 * after Redis lost it (services/shared/redis-streams.ts) replays what the stream still holds, so it
 * must not hold every item ever queued; an entry trimmed before it was read is sent again by the
 * sweeper, like any lost message.
 */
export const BATCH_STREAM_MAX_LEN = '~100000';

export interface BatchItemRow {
  id: string;
  batchId: string;
  index: number;
  status: ItemStatus;
  issuerId: string | null;
  body: unknown;
  documentId: string | null;
  resultData: Record<string, unknown> | null;
  attempts: number;
  updatedAt: Date;
}

export interface BatchRow {
  id: string;
  partnerId: string;
  model: Model;
  keyKind: 'live' | 'test' | null;
  total: number;
  requestId: string;
  createdAt: Date;
}

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v ?? null);
const toItem = (r: any): BatchItemRow => ({
  id: r.id, batchId: r.batch_id, index: Number(r.index), status: r.status, issuerId: r.issuer_id, body: json(r.body),
  documentId: r.document_id, resultData: json(r.result_data), attempts: Number(r.attempts), updatedAt: new Date(r.updated_at),
});
const toBatch = (r: any): BatchRow => ({
  id: r.id, partnerId: r.partner_id, model: r.model, keyKind: r.key_kind === 'jwt' ? null : r.key_kind, total: Number(r.total),
  requestId: r.request_id, createdAt: new Date(r.created_at),
});

export class BatchStore {
  constructor(private readonly knex: Knex, private readonly schema: string, private readonly now: () => Date) {}

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /**
   * Queues a batch. Its Idempotency-Key, if any, is bound to it in the same transaction (unique per
   * partner): a second batch under the key is refused with KeyAlreadyBound and nothing is queued.
   */
  async create(b: { partnerId: string; keyKind: 'live' | 'test' | null; model: Model; requestId: string; notas: unknown[]; idempotencyKey: string | null; fingerprint: string | null }): Promise<{ batch: BatchRow; items: BatchItemRow[] }> {
    try {
      return await this.insert(b);
    } catch (err: any) {
      if (err?.code === '23505' && String(err.constraint ?? err.message).includes('batches_idempotency_unique')) throw new KeyAlreadyBound(b.idempotencyKey!);
      throw err;
    }
  }

  /** The batch an Idempotency-Key is bound to, with the fingerprint of the request that queued it. */
  async findByIdempotencyKey(partnerId: string, key: string): Promise<{ batch: BatchRow; fingerprint: string | null } | undefined> {
    const r = await this.knex(this.t('batches')).where({ partner_id: partnerId, idempotency_key: key }).first();
    return r ? { batch: toBatch(r), fingerprint: r.idempotency_fingerprint ?? null } : undefined;
  }

  private insert(b: Parameters<BatchStore['create']>[0]): Promise<{ batch: BatchRow; items: BatchItemRow[] }> {
    const now = this.now();
    const id = randomUUID();
    return this.knex.transaction(async (trx) => {
      await trx(this.t('batches')).insert({
        id, partner_id: b.partnerId, model: b.model, key_kind: b.keyKind ?? 'jwt', total: b.notas.length, request_id: b.requestId, created_at: now,
        idempotency_key: b.idempotencyKey, idempotency_fingerprint: b.fingerprint,
      });
      const rows = b.notas.map((nota, index) => ({
        id: randomUUID(), batch_id: id, index, status: 'QUEUED', body: JSON.stringify(nota),
        issuer_id: nota && typeof (nota as any).issuerId === 'string' ? (nota as any).issuerId : null,
        enqueued_at: now, updated_at: now, attempts: 0,
      }));
      for (let i = 0; i < rows.length; i += 500) await trx(this.t('batch_items')).insert(rows.slice(i, i + 500));
      return {
        batch: toBatch(await trx(this.t('batches')).where({ id }).first()),
        items: (await trx(this.t('batch_items')).where({ batch_id: id }).orderBy('index')).map(toItem),
      };
    });
  }

  async batch(id: string): Promise<BatchRow | undefined> {
    const r = await this.knex(this.t('batches')).where({ id }).first();
    return r ? toBatch(r) : undefined;
  }

  async items(batchId: string): Promise<BatchItemRow[]> {
    return (await this.knex(this.t('batch_items')).where({ batch_id: batchId }).orderBy('index')).map(toItem);
  }

  async item(id: string): Promise<BatchItemRow | undefined> {
    const r = await this.knex(this.t('batch_items')).where({ id }).first();
    return r ? toItem(r) : undefined;
  }

  /** Takes an item for this node: queued, or processing by a node that died (claim expired). */
  async claim(id: string): Promise<BatchItemRow | null> {
    const now = this.now();
    const rows = await this.knex(this.t('batch_items'))
      .where({ id })
      .andWhere((q) => q.where({ status: 'QUEUED' }).orWhere((q2) => q2.where({ status: 'PROCESSING' }).andWhere('claimed_until', '<', now)))
      .update({ status: 'PROCESSING', claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: this.knex.raw('attempts + 1'), updated_at: now })
      .returning('*');
    return rows[0] ? toItem(rows[0]) : null;
  }

  async finish(id: string, status: 'COMPLETED' | 'FAILED', resultData: Record<string, unknown>, documentId: string | null): Promise<void> {
    await this.knex(this.t('batch_items')).where({ id, status: 'PROCESSING' })
      .update({ status, result_data: JSON.stringify(resultData), document_id: documentId, claimed_until: null, updated_at: this.now() });
  }

  /** Puts an item back after a transient failure (5xx); it is picked up again by the sweeper. */
  async release(id: string): Promise<void> {
    await this.knex(this.t('batch_items')).where({ id, status: 'PROCESSING' }).update({ status: 'QUEUED', claimed_until: null, enqueued_at: this.now(), updated_at: this.now() });
  }

  /** Items that were queued long ago or whose claim expired; stamped so other nodes skip them. */
  async stale(limit: number): Promise<string[]> {
    const now = this.now();
    return this.knex.transaction(async (trx) => {
      const rows = await trx(this.t('batch_items'))
        .where((q) => q.where({ status: 'QUEUED' }).andWhere('enqueued_at', '<', new Date(now.getTime() - REQUEUE_AFTER_MS)))
        .orWhere((q) => q.where({ status: 'PROCESSING' }).andWhere('claimed_until', '<', now))
        .orderBy('enqueued_at').limit(limit).forUpdate().skipLocked().select('id');
      const ids = rows.map((r: any) => r.id as string);
      if (ids.length) await trx(this.t('batch_items')).whereIn('id', ids).update({ enqueued_at: now });
      return ids;
    });
  }
}

/** GET /v1/nfe/batch/{id}: counts by status and every item. */
export function batchView(batch: BatchRow, items: BatchItemRow[]) {
  const counts: Record<ItemStatus, number> = { QUEUED: 0, PROCESSING: 0, COMPLETED: 0, FAILED: 0 };
  for (const i of items) counts[i.status]++;
  const done = counts.COMPLETED + counts.FAILED === batch.total;
  return {
    id: batch.id,
    status: done ? 'CONCLUIDO' : 'EM_PROCESSAMENTO',
    total: batch.total,
    contagem: counts,
    createdAt: batch.createdAt.toISOString(),
    items: items.map((i) => itemView(batch, i)),
  };
}

export function itemView(batch: Pick<BatchRow, 'id'>, i: BatchItemRow) {
  return {
    id: i.id,
    index: i.index,
    status: i.status,
    invoiceId: i.documentId,
    resultData: i.resultData,
    updatedAt: i.updatedAt.toISOString(),
    links: { self: `/v1/nfe/batch/${batch.id}/items/${i.id}` },
  };
}
