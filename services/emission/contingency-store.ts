import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import { CONTINGENCY_TP_EMIS, contingencyTransmissionStart, nextContingencyTryAt, type ContingencyInfo } from '../../lib/emission/contingency.js';
import { contingencyEventData } from '../../lib/emission/contingency-event.js';
import { isInFlight } from '../../lib/emission/transmission.js';
import { nextCheckAt } from '../../lib/emission/reconciliation.js';
import { TERMINAL_STATUSES } from '../../lib/emission/state.js';
import { COLUMNS, toRecord, type StoreDeps, type TransmissionClaim } from './store.js';

/**
 * Persistence of the NFC-e offline contingency (lib/emission/contingency.ts): entry into
 * CONTINGENCIA_PENDENTE with its `invoice.contingency` event, the scheduler's claims and attempts,
 * and the once-only `invoice.contingency.expired`. Same table and outbox as DocumentStore; every
 * decision is taken on rows held locked, so any number of emission replicas share the work.
 */
export class ContingencyStore {
  constructor(private readonly d: StoreDeps) {}

  private get table(): string {
    return `${this.d.schema}.documents`;
  }

  private async reload(trx: Knex.Transaction, id: string): Promise<DocumentRecord> {
    return toRecord(await trx(this.table).select(trx.raw(COLUMNS)).where({ id }).first());
  }

  private async history(trx: Knex.Transaction, id: string, from: string | null, to: string, trigger: string, motivo: string | null, detail: unknown): Promise<void> {
    await trx(`${this.d.schema}.document_history`).insert({ document_id: id, from_status: from, to_status: to, trigger, motivo, detail: detail ? JSON.stringify(detail) : null, at: this.d.now() });
  }

  /**
   * Moves a document (held by `trx`) to CONTINGENCIA_PENDENTE and writes `invoice.contingency` in
   * the same transaction. Out of reconciliation (no next check): the scheduler owns it now.
   */
  async enter(trx: Knex.Transaction, doc: DocumentRecord, info: ContingencyInfo, trigger: string): Promise<DocumentRecord> {
    const now = this.d.now();
    await trx(this.table).where({ id: doc.id }).update({
      status: 'CONTINGENCIA_PENDENTE', updated_at: now, transmitting_until: null, next_check_at: null, motivo: null,
      contingency_reason: info.motivo, contingency_justification: info.justificativa, contingency_deadline: info.prazo,
      contingency_next_try_at: now, contingency_tries: 0,
    });
    await this.history(trx, doc.id, doc.status, 'CONTINGENCIA_PENDENTE', trigger, info.justificativa, { motivo: info.motivo, accessKey: doc.accessKey, prazo: info.prazo.toISOString() });
    const record = await this.reload(trx, doc.id);
    await this.d.enqueueEvent(trx, { type: 'invoice.contingency', partnerId: record.partnerId, data: contingencyEventData(record) });
    return record;
  }

  /**
   * After an infrastructure failure and a "not found" consult: the same number under a new tpEmis 9
   * key (`built`, new cNF), entered into contingency. Only if nothing moved since the consult (the
   * same attempt, no transmission in flight, still open); otherwise the current record is returned
   * unchanged with `rekeyed: false`.
   */
  async rekey(id: string, expectedAttempt: number, cnf: string, built: BuiltDocument, info: ContingencyInfo): Promise<{ rekeyed: boolean; doc: DocumentRecord }> {
    return this.d.knex.transaction(async (trx) => {
      const current = toRecord(await trx(this.table).select(trx.raw(COLUMNS)).where({ id }).forUpdate().first());
      const now = this.d.now();
      if ((current.status !== 'ERROR' && current.status !== 'TRANSMITTING') || current.transmissions !== expectedAttempt || isInFlight(current, now)) {
        return { rekeyed: false, doc: current };
      }
      await trx(this.table).where({ id }).update({
        access_key: built.accessKey, cnf, tp_emis: CONTINGENCY_TP_EMIS, transmitted_xml: built.xml, digest_value: built.digestValue, qr_code: built.qrCode ?? null,
      });
      await this.history(trx, id, current.status, current.status, 'contingency:rekey', 'Chave normal não consta na autoridade; nova chave em contingência (tpEmis 9).', { from: current.accessKey, to: built.accessKey });
      return { rekeyed: true, doc: await this.enter(trx, { ...current, accessKey: built.accessKey }, info, 'contingency:transmission-failure') };
    });
  }

  /**
   * Claims CONTINGENCIA_PENDENTE notes whose next try is due: SKIP LOCKED shares them between
   * nodes, and the next try is moved forward (backoff) in the same transaction, so a claimed note
   * is not claimed again before then whatever happens to this node.
   */
  async claimDue(limit: number): Promise<DocumentRecord[]> {
    return this.d.knex.transaction(async (trx) => {
      const now = this.d.now();
      const rows = await trx(this.table).where({ status: 'CONTINGENCIA_PENDENTE' }).where('contingency_next_try_at', '<=', now)
        .orderBy('contingency_next_try_at').limit(limit).forUpdate().skipLocked().select('id', 'contingency_tries');
      for (const r of rows) {
        const tries = Number(r.contingency_tries);
        await trx(this.table).where({ id: r.id }).update({ contingency_tries: tries + 1, contingency_next_try_at: nextContingencyTryAt(tries, now) });
      }
      if (!rows.length) return [];
      return (await trx(this.table).select(trx.raw(COLUMNS)).whereIn('id', rows.map((r: any) => r.id))).map(toRecord);
    });
  }

  /**
   * Starts a transmission attempt of a claimed contingency note (the existing attempt and lease
   * columns, like DocumentStore.markTransmitting): TRANSMITTING with a lease and a reconciliation
   * slot, so if this node dies mid-call the note is consulted by key and never lost.
   */
  async startAttempt(id: string, expectedAttempt: number): Promise<TransmissionClaim> {
    return this.d.knex.transaction(async (trx) => {
      const current = toRecord(await trx(this.table).select(trx.raw(COLUMNS)).where({ id }).forUpdate().first());
      const now = this.d.now();
      const decision = contingencyTransmissionStart(current, now, expectedAttempt);
      if (decision.kind !== 'start') return { kind: decision.kind, doc: current };
      await trx(this.table).where({ id }).update({
        status: 'TRANSMITTING', updated_at: now, transmissions: decision.attempt, transmitting_until: decision.leaseUntil,
        next_check_at: nextCheckAt(current.createdAt, 0, now),
      });
      await this.history(trx, id, current.status, 'TRANSMITTING', 'contingency:transmit', null, { attempt: decision.attempt });
      return { kind: 'started', doc: await this.reload(trx, id) };
    });
  }

  /**
   * Writes `invoice.contingency.expired` once for each contingency note past its deadline without
   * authorization; the state is unchanged. Marking the row and writing the event commit together,
   * and SKIP LOCKED keeps two nodes off the same row, so the event exists exactly once.
   */
  async expireDue(limit: number): Promise<DocumentRecord[]> {
    return this.d.knex.transaction(async (trx) => {
      const now = this.d.now();
      const rows = await trx(this.table).where({ tp_emis: CONTINGENCY_TP_EMIS }).whereNotNull('contingency_deadline').whereNull('contingency_expired_at')
        .where('contingency_deadline', '<=', now).whereNotIn('status', [...TERMINAL_STATUSES])
        .orderBy('contingency_deadline').limit(limit).forUpdate().skipLocked().select('id');
      const expired: DocumentRecord[] = [];
      for (const r of rows) {
        await trx(this.table).where({ id: r.id }).update({ contingency_expired_at: now });
        const record = await this.reload(trx, r.id);
        await this.history(trx, r.id, record.status, record.status, 'contingency:expired', 'Prazo de 24 h da contingência vencido sem autorização.', null);
        await this.d.enqueueEvent(trx, { type: 'invoice.contingency.expired', partnerId: record.partnerId, data: contingencyEventData(record) });
        expired.push(record);
      }
      return expired;
    });
  }
}
