import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { EVENT_LEASE_MS } from '../../lib/emission/fiscal-events.js';
import { claimRange, type InutilizacaoRecord, type RangeClaim } from '../../lib/emission/inutilizacao.js';
import type { Model } from '../../lib/nfe/types.js';
import type { NumberSpace, StoreDeps } from './document-row.js';
import { ensureSequence } from './fiscal-identity.js';

/**
 * Persistence of inutilizações. The claim of a range runs under the numbering's row lock of its
 * space (number_sequences, SELECT … FOR UPDATE, the lock DocumentStore.createNumbered holds while
 * it picks a number; a passthrough `numero` takes it FOR SHARE): a range and a number can never be
 * taken by two nodes at once, and the numbering then skips every range that holds numbers.
 */
const COLUMNS = `id, partner_id, issuer_id, model, series, environment, start_number, end_number, justificativa, status, protocol, c_stat, x_motivo,
  homologated_at, sending_until, last_outcome, attempts, created_at, updated_at, (proc_xml is not null) as has_xml`;

function toRange(r: any): InutilizacaoRecord {
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return {
    id: r.id, partnerId: r.partner_id, issuerId: r.issuer_id, model: r.model, series: Number(r.series), environment: Number(r.environment) as 1 | 2,
    start: Number(r.start_number), end: Number(r.end_number), justificativa: r.justificativa, status: r.status, protocol: r.protocol ?? null,
    cStat: r.c_stat == null ? null : Number(r.c_stat), xMotivo: r.x_motivo ?? null, homologatedAt: date(r.homologated_at),
    sendingUntil: date(r.sending_until), lastOutcome: r.last_outcome ?? null, attempts: Number(r.attempts), createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), hasXml: !!r.has_xml,
  };
}

export type RangeSettlement =
  | { kind: 'homologated'; protocol: string | null; at: Date | null; xml: string | null; cStat: number; xMotivo: string }
  | { kind: 'rejected'; cStat: number; xMotivo: string }
  | { kind: 'unanswered'; outcome: 'failed' | 'unknown'; detail: string };

const spaceKey = (s: NumberSpace) => ({ issuer_id: s.issuerId, model: s.model, series: s.series, environment: s.environment });

export class InutilizacaoStore {
  constructor(private readonly d: StoreDeps) {}

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  private ranges(q: Knex | Knex.Transaction) {
    return q(this.t('inutilizacoes')).select(q.raw(COLUMNS));
  }

  async get(id: string): Promise<InutilizacaoRecord | undefined> {
    const row = await this.ranges(this.d.knex).where({ id }).first();
    return row ? toRange(row) : undefined;
  }

  async xmlOf(id: string): Promise<string | null> {
    return (await this.d.knex(this.t('inutilizacoes')).where({ id }).first('proc_xml'))?.proc_xml ?? null;
  }

  async list(f: { partnerId: string; model: Model; issuerId?: string; serie?: number; limit: number }): Promise<InutilizacaoRecord[]> {
    const q = this.ranges(this.d.knex).where({ partner_id: f.partnerId, model: f.model });
    if (f.issuerId) q.where({ issuer_id: f.issuerId });
    if (f.serie !== undefined) q.where({ series: f.serie });
    return (await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit)).map(toRange);
  }

  /** Claims [start, end] of a space for this request (lib/emission/inutilizacao.ts claimRange), holding the numbering lock. */
  async claim(space: NumberSpace, req: { partnerId: string; start: number; end: number; justificativa: string }): Promise<{ decision: RangeClaim; range: InutilizacaoRecord }> {
    return this.d.knex.transaction(async (trx) => {
      const key = spaceKey(space);
      await ensureSequence(trx, this.d.schema, key, space.cnpj);
      await trx(this.t('number_sequences')).where(key).forUpdate().first('next_number');
      const used = await trx(this.t('documents')).where(key).whereBetween('number', [req.start, req.end]).select('number', 'status');
      const overlapping = (await this.ranges(trx).where(key).where('start_number', '<=', req.end).where('end_number', '>=', req.start)).map(toRange);
      const now = this.d.now();
      const decision = claimRange(req.start, req.end, used.map((r: any) => ({ number: Number(r.number), status: r.status })), overlapping, now);
      if (decision.kind === 'done') return { decision, range: decision.range };
      const lease = new Date(now.getTime() + EVENT_LEASE_MS);
      let id: string;
      if (decision.kind === 'resume') {
        id = decision.range.id;
        await trx(this.t('inutilizacoes')).where({ id }).update({ sending_until: lease, attempts: trx.raw('attempts + 1'), updated_at: now });
      } else {
        id = randomUUID();
        await trx(this.t('inutilizacoes')).insert({
          id, partner_id: req.partnerId, ...key, start_number: req.start, end_number: req.end, justificativa: req.justificativa,
          status: 'PENDING', sending_until: lease, attempts: 1, created_at: now, updated_at: now,
        });
      }
      return { decision, range: toRange(await this.ranges(trx).where({ id }).first()) };
    });
  }

  async settle(range: InutilizacaoRecord, s: RangeSettlement): Promise<InutilizacaoRecord> {
    const now = this.d.now();
    const base = { sending_until: null, updated_at: now };
    const update = s.kind === 'homologated'
      ? { ...base, status: 'HOMOLOGATED', protocol: s.protocol, homologated_at: s.at, proc_xml: s.xml, c_stat: s.cStat, x_motivo: s.xMotivo, last_outcome: null }
      : s.kind === 'rejected'
        ? { ...base, status: 'REJECTED', c_stat: s.cStat, x_motivo: s.xMotivo, last_outcome: null }
        : { ...base, last_outcome: s.outcome, x_motivo: s.detail };
    await this.d.knex(this.t('inutilizacoes')).where({ id: range.id }).update(update);
    return toRange(await this.ranges(this.d.knex).where({ id: range.id }).first());
  }
}
