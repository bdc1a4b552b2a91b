import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { DocumentRecord } from '../../lib/emission/document.js';
import {
  EVENT_LEASE_MS, TP_EVENTO, canceledEventData, checkCancelable, checkCorrectable, claimEvent,
  type EventSettlement, type FiscalEventRecord, type FiscalEventType,
} from '../../lib/emission/fiscal-events.js';
import { COLUMNS, toRecord, type StoreDeps } from './document-row.js';

/**
 * Persistence of the events after authorization (cancellation, CC-e). A claim, and a settlement
 * with the document's new state and its public event, each commit in one transaction holding the
 * document row lock, so two requests for one document never send two events at once and
 * `invoice.canceled` is written exactly once (outbox).
 */
const EVENT_COLUMNS = `id, document_id, partner_id, type, sequence, status, text, protocol, c_stat, x_motivo, registered_at,
  sending_until, last_outcome, attempts, created_at, updated_at, (proc_xml is not null) as has_xml`;

function toEvent(r: any): FiscalEventRecord {
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return {
    id: r.id, documentId: r.document_id, partnerId: r.partner_id, type: r.type, sequence: Number(r.sequence), status: r.status, text: r.text,
    protocol: r.protocol ?? null, cStat: r.c_stat == null ? null : Number(r.c_stat), xMotivo: r.x_motivo ?? null, registeredAt: date(r.registered_at),
    sendingUntil: date(r.sending_until), lastOutcome: r.last_outcome ?? null, attempts: Number(r.attempts),
    createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), hasXml: !!r.has_xml,
  };
}

export type EventClaimResult =
  | { kind: 'send'; event: FiscalEventRecord; doc: DocumentRecord }
  /** The document is already canceled: its registered cancellation is the answer. */
  | { kind: 'done'; event: FiscalEventRecord; doc: DocumentRecord };

export class FiscalEventStore {
  constructor(private readonly d: StoreDeps) {}

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  private events(q: Knex | Knex.Transaction) {
    return q(this.t('document_events')).select(q.raw(EVENT_COLUMNS));
  }

  async list(documentId: string): Promise<FiscalEventRecord[]> {
    return (await this.events(this.d.knex).where({ document_id: documentId }).orderBy([{ column: 'created_at' }, { column: 'sequence' }])).map(toEvent);
  }

  async get(id: string): Promise<FiscalEventRecord | undefined> {
    const row = await this.events(this.d.knex).where({ id }).first();
    return row ? toEvent(row) : undefined;
  }

  async xmlOf(id: string): Promise<string | null> {
    const row = await this.d.knex(this.t('document_events')).where({ id }).first('proc_xml');
    return row?.proc_xml ?? null;
  }

  /** The registered cancellation of a document, if any. */
  async registeredCancellation(documentId: string): Promise<FiscalEventRecord | undefined> {
    const row = await this.events(this.d.knex).where({ document_id: documentId, type: 'cancelamento', status: 'REGISTERED' }).first();
    return row ? toEvent(row) : undefined;
  }

  /**
   * Starts sending an event: decides on the document and its events read under the document row
   * lock (lib/emission/fiscal-events.ts) and commits the PENDING event with a lease before the
   * authority is called.
   */
  async claim(documentId: string, type: FiscalEventType, text: string): Promise<EventClaimResult> {
    return this.d.knex.transaction(async (trx) => {
      const row = await trx(this.t('documents')).select(trx.raw(COLUMNS)).where({ id: documentId }).forUpdate().first();
      if (!row) throw new Error(`document ${documentId} vanished`);
      const doc = toRecord(row);
      const now = this.d.now();
      if (type === 'cancelamento') {
        if (doc.status === 'CANCELADA') {
          const done = await this.events(trx).where({ document_id: documentId, type: 'cancelamento', status: 'REGISTERED' }).first();
          if (!done) throw new Error(`document ${documentId} CANCELADA without a registered cancellation`);
          return { kind: 'done', event: toEvent(done), doc };
        }
        checkCancelable(doc.status);
      } else {
        checkCorrectable(doc.status);
      }
      const events = (await this.events(trx).where({ document_id: documentId })).map(toEvent);
      const decision = claimEvent(type, text, events, now);
      const lease = new Date(now.getTime() + EVENT_LEASE_MS);
      let id: string;
      if (decision.kind === 'resume') {
        id = decision.event.id;
        await trx(this.t('document_events')).where({ id }).update({ sending_until: lease, attempts: decision.event.attempts + 1, updated_at: now });
      } else {
        id = randomUUID();
        await trx(this.t('document_events')).insert({
          id, document_id: documentId, partner_id: doc.partnerId, type, tp_evento: TP_EVENTO[type], sequence: decision.sequence, status: 'PENDING', text,
          sending_until: lease, attempts: 1, created_at: now, updated_at: now,
        });
      }
      return { kind: 'send', event: toEvent(await this.events(trx).where({ id }).first()), doc };
    });
  }

  /**
   * Stores what the authority said. A registered cancellation also moves the document from
   * AUTHORIZED to CANCELADA with its history row and `invoice.canceled`, in the same commit.
   */
  async settle(event: FiscalEventRecord, s: EventSettlement): Promise<{ event: FiscalEventRecord; doc: DocumentRecord }> {
    return this.d.knex.transaction(async (trx) => {
      const docRow = await trx(this.t('documents')).select(trx.raw(COLUMNS)).where({ id: event.documentId }).forUpdate().first();
      const now = this.d.now();
      const base = { sending_until: null, updated_at: now };
      if (s.kind === 'registered') {
        await trx(this.t('document_events')).where({ id: event.id }).update({
          ...base, status: 'REGISTERED', protocol: s.protocol, registered_at: s.registeredAt, proc_xml: s.xml, c_stat: s.cStat, x_motivo: s.xMotivo, last_outcome: null,
        });
      } else if (s.kind === 'rejected') {
        await trx(this.t('document_events')).where({ id: event.id }).update({ ...base, status: 'REJECTED', c_stat: s.cStat, x_motivo: s.xMotivo, last_outcome: null });
      } else {
        await trx(this.t('document_events')).where({ id: event.id }).update({ ...base, last_outcome: s.outcome, x_motivo: s.detail });
      }
      const stored = toEvent(await this.events(trx).where({ id: event.id }).first());
      let doc = toRecord(docRow);
      if (s.kind === 'registered' && event.type === 'cancelamento' && doc.status === 'AUTHORIZED') {
        await trx(this.t('documents')).where({ id: doc.id }).update({ status: 'CANCELADA', updated_at: now, motivo: `${s.cStat} - ${s.xMotivo}` });
        await trx(this.t('document_history')).insert({
          document_id: doc.id, from_status: 'AUTHORIZED', to_status: 'CANCELADA', trigger: 'cancellation', motivo: stored.text,
          detail: JSON.stringify({ eventoId: stored.id, protocolo: s.protocol, cStat: s.cStat }), at: now,
        });
        doc = toRecord(await trx(this.t('documents')).select(trx.raw(COLUMNS)).where({ id: doc.id }).first());
        await this.d.enqueueEvent(trx, { type: 'invoice.canceled', partnerId: doc.partnerId, data: canceledEventData(doc, stored) });
      }
      return { event: stored, doc };
    });
  }
}
