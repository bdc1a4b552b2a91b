import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import {
  CONTINGENCY_TP_EMIS, contingencyInfo, contingencyTransmissionStart, heldRekeyDue, nextContingencyTryAt, type ContingencyHold, type ContingencyInfo,
} from '../../lib/emission/contingency.js';
import { contingencyEventData } from '../../lib/emission/contingency-event.js';
import { isInFlight } from '../../lib/emission/transmission.js';
import { nextCheckAt } from '../../lib/emission/reconciliation.js';
import { isOpen, TERMINAL_STATUSES } from '../../lib/emission/state.js';
import { type TransmissionClaim } from './store.js';
import { COLUMNS, toRecord, type StoreDeps } from './document-row.js';
import { DocumentKeys, type PreviousKey } from './key-store.js';

/**
 * Persistence of the NFC-e offline contingency (lib/emission/contingency.ts): entry into
 * CONTINGENCIA_PENDENTE with its `invoice.contingency` event, the scheduler's claims and attempts,
 * and the once-only `invoice.contingency.expired`. Same table and outbox as DocumentStore; every
 * decision is taken on rows held locked, so any number of emission replicas share the work.
 */
export class ContingencyStore {
  readonly keys: DocumentKeys;

  constructor(private readonly d: StoreDeps) {
    this.keys = new DocumentKeys(d.schema, d.now);
  }

  /** A key this document held before its current one (document_keys), or undefined. */
  previousKey(id: string, accessKey: string): Promise<PreviousKey | undefined> {
    return this.keys.previous(this.d.knex, id, accessKey);
  }

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
      if (!this.mayRekey(current, expectedAttempt, now)) return { rekeyed: false, doc: current };
      await this.keys.release(trx, id, 'contingency:rekey');
      await trx(this.table).where({ id }).update({
        access_key: built.accessKey, cnf, tp_emis: CONTINGENCY_TP_EMIS, transmitted_xml: built.xml, digest_value: built.digestValue, qr_code: built.qrCode ?? null,
      });
      await this.history(trx, id, current.status, current.status, 'contingency:rekey', 'Chave normal não consta na autoridade; nova chave em contingência (tpEmis 9).', { from: current.accessKey, to: built.accessKey });
      return { rekeyed: true, doc: await this.enter(trx, { ...current, accessKey: built.accessKey }, info, 'contingency:transmission-failure') };
    });
  }

  /** Nothing moved since the caller's consult: the same attempt, no transmission in flight, still open. */
  private mayRekey(current: DocumentRecord, expectedAttempt: number, now: Date): boolean {
    return (current.status === 'ERROR' || current.status === 'TRANSMITTING') && current.transmissions === expectedAttempt && !isInFlight(current, now);
  }

  /**
   * After an after-send unknown and a "not found" consult (lib/emission/contingency.ts, `hold`):
   * keeps the tpEmis 9 note built now, and moves the next reconciliation check to the end of the
   * window, when a consult that still finds nothing re-keys (rekeyHeld). The document keeps its
   * first key meanwhile. Refused, like rekey, if anything moved since the consult.
   */
  async hold(id: string, expectedAttempt: number, cnf: string, built: BuiltDocument, justificativa: string, until: Date): Promise<{ held: boolean; doc: DocumentRecord }> {
    return this.d.knex.transaction(async (trx) => {
      const current = toRecord(await trx(this.table).select(trx.raw(COLUMNS)).where({ id }).forUpdate().first());
      const now = this.d.now();
      if (!this.mayRekey(current, expectedAttempt, now)) return { held: false, doc: current };
      const row = {
        document_id: id, attempt: expectedAttempt, rekey_after: until, access_key: built.accessKey, cnf, signed_xml: built.xml,
        digest_value: built.digestValue, qr_code: built.qrCode ?? null, justification: justificativa, created_at: now,
      };
      await trx(`${this.d.schema}.contingency_holds`).insert(row).onConflict('document_id').merge();
      await trx(this.table).where({ id }).update({ next_check_at: until, updated_at: now });
      await this.history(trx, id, current.status, current.status, 'contingency:hold', 'Envio pode ter chegado à autoridade e a chave ainda não consta; contingência só se continuar ausente após a janela de processamento.', { accessKey: current.accessKey, rekeyAfter: until.toISOString() });
      return { held: true, doc: await this.reload(trx, id) };
    });
  }

  async dropHold(id: string): Promise<void> {
    await this.d.knex(`${this.d.schema}.contingency_holds`).where({ document_id: id }).delete();
  }

  async holdOf(id: string): Promise<ContingencyHold | null> {
    const row = await this.d.knex(`${this.d.schema}.contingency_holds`).where({ document_id: id }).first('attempt', 'rekey_after');
    return row ? { attempt: Number(row.attempt), rekeyAfter: new Date(row.rekey_after) } : null;
  }

  /**
   * The held re-key, once a consult asked at `askedAt` (past the window) still found the first key
   * missing: the document takes the tpEmis 9 key built at emission and enters contingency, its
   * first key kept in document_keys. Refused if another transmission started since the hold.
   */
  async rekeyHeld(id: string, askedAt: Date): Promise<{ rekeyed: boolean; doc: DocumentRecord }> {
    return this.d.knex.transaction(async (trx) => {
      const current = toRecord(await trx(this.table).select(trx.raw(COLUMNS)).where({ id }).forUpdate().first());
      const holds = `${this.d.schema}.contingency_holds`;
      const hold = await trx(holds).where({ document_id: id }).first();
      const now = this.d.now();
      if (!hold || !this.mayRekey(current, Number(hold.attempt), now) || !heldRekeyDue({ attempt: Number(hold.attempt), rekeyAfter: new Date(hold.rekey_after) }, current, askedAt)) {
        return { rekeyed: false, doc: current };
      }
      await this.keys.release(trx, id, 'contingency:held-rekey');
      await trx(this.table).where({ id }).update({
        access_key: hold.access_key, cnf: hold.cnf, tp_emis: CONTINGENCY_TP_EMIS, transmitted_xml: hold.signed_xml, digest_value: hold.digest_value, qr_code: hold.qr_code,
      });
      await trx(holds).where({ document_id: id }).delete();
      await this.history(trx, id, current.status, current.status, 'contingency:rekey', 'Chave normal ainda não consta na autoridade após a janela de processamento; nova chave em contingência (tpEmis 9).', { from: current.accessKey, to: hold.access_key });
      // dhCont is the note's dhEmi (built so at emission): the deadline runs from there.
      const info = contingencyInfo('falha-na-transmissao', hold.justification, current.emittedAt);
      return { rekeyed: true, doc: await this.enter(trx, { ...current, accessKey: hold.access_key }, info, 'contingency:transmission-failure') };
    });
  }

  /**
   * A 539 named a key this document held and the authority registered it (lib/emission/duplicate-key.ts):
   * the document takes that key back, with the XML signed under it, for attempt `attempt` only;
   * its current key joins the earlier ones. It is no longer a contingency note (tpEmis of the key
   * taken back). The outcome is then applied as for any answer of this attempt; if this node dies
   * in between, reconciliation consults the key taken back and settles it the same way.
   */
  async adoptPrevious(id: string, attempt: number, previous: PreviousKey): Promise<boolean> {
    return this.d.knex.transaction(async (trx) => {
      const current = toRecord(await trx(this.table).select(trx.raw(COLUMNS)).where({ id }).forUpdate().first());
      if (!isOpen(current.status) || current.transmissions !== attempt) return false;
      await this.keys.release(trx, id, 'adopted-previous-key');
      await trx(this.table).where({ id }).update({
        access_key: previous.accessKey, cnf: previous.cnf, tp_emis: previous.tpEmis, transmitted_xml: previous.signedXml, digest_value: previous.digestValue, qr_code: previous.qrCode,
        contingency_reason: null, contingency_justification: null, contingency_deadline: null, contingency_next_try_at: null, updated_at: this.d.now(),
      });
      await this.keys.forget(trx, id, previous.accessKey);
      await this.history(trx, id, current.status, current.status, 'key:adopted', 'A autoridade registrou o número com a chave anterior desta nota; a nota volta a ela.', { from: current.accessKey, to: previous.accessKey });
      return true;
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
