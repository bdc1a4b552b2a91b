import { randomUUID } from 'node:crypto';
import type { Erro } from '../../../lib/emission/document.js';
import { nfseEventData } from '../../../lib/emission/nfse/document.js';
import { DomainError } from '../../../lib/errors/index.js';
import { nextCheckAt } from '../../../lib/emission/reconciliation.js';
import type { StoreDeps } from '../document-row.js';
import { toNfseRecord, type NfseStore } from './store.js';

/**
 * The NFS-e cancellation events (e101101): one pending at a time per NFS-e, a lease while it is
 * being sent, and the registration committed with CANCELADA and invoice.canceled (outbox).
 */
export type NfseEventStatus = 'PENDING' | 'REGISTERED' | 'REJECTED';

export interface NfseEventRecord {
  id: string;
  documentId: string;
  status: NfseEventStatus;
  codigoMotivo: 1 | 2 | 9;
  justificativa: string;
  erros: Erro[] | null;
  registeredAt: Date | null;
  createdAt: Date;
  hasEventXml: boolean;
  /** How the last send ended without an answer: `unknown` may have been registered (consulted before anything else). */
  lastOutcome: 'failed' | 'unknown' | null;
  nextCheckAt: Date | null;
}

/** Longer than one Sefin call can take from this service (broker timeout). */
const SEND_LEASE_MS = 2 * 60_000;

function toEvent(r: any): NfseEventRecord {
  return {
    id: r.id, documentId: r.document_id, status: r.status, codigoMotivo: Number(r.codigo_motivo) as 1 | 2 | 9, justificativa: r.justificativa,
    erros: r.erros == null ? null : typeof r.erros === 'string' ? JSON.parse(r.erros) : r.erros,
    registeredAt: r.registered_at ? new Date(r.registered_at) : null, createdAt: new Date(r.created_at), hasEventXml: r.event_xml != null,
    lastOutcome: r.last_outcome ?? null, nextCheckAt: r.next_check_at ? new Date(r.next_check_at) : null,
  };
}

export type EventClaim =
  | { kind: 'send'; event: NfseEventRecord; requestXml: string }
  | { kind: 'in-flight'; event: NfseEventRecord }
  | { kind: 'registered'; event: NfseEventRecord };

export class NfseEventStore {
  constructor(private readonly d: StoreDeps, private readonly documents: NfseStore) {}

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  async registered(documentId: string): Promise<NfseEventRecord | undefined> {
    const row = await this.d.knex(this.t('nfse_events')).where({ document_id: documentId, status: 'REGISTERED' }).first();
    return row ? toEvent(row) : undefined;
  }

  async eventXml(id: string): Promise<string | null> {
    const row = await this.d.knex(this.t('nfse_events')).where({ id }).first('event_xml');
    return row?.event_xml ?? null;
  }

  /**
   * Takes the right to send the cancellation of `documentId` now, under the document's row lock:
   * the pending event if there is one (its signed request, so a repeat never signs a second
   * event), else a new one from `build()`. A live lease answers in-flight.
   */
  async claim(documentId: string, justificativa: string, codigoMotivo: 1 | 2 | 9, build: () => string): Promise<EventClaim> {
    return this.d.knex.transaction(async (trx) => {
      await trx(this.t('nfse_documents')).where({ id: documentId }).forUpdate().first('id');
      const now = this.d.now();
      const existing = await trx(this.t('nfse_events')).where({ document_id: documentId }).whereIn('status', ['PENDING', 'REGISTERED']).orderBy('created_at', 'desc').first();
      if (existing?.status === 'REGISTERED') return { kind: 'registered', event: toEvent(existing) };
      if (existing && existing.sending_until && new Date(existing.sending_until).getTime() > now.getTime()) return { kind: 'in-flight', event: toEvent(existing) };
      const lease = new Date(now.getTime() + SEND_LEASE_MS);
      if (existing) {
        await trx(this.t('nfse_events')).where({ id: existing.id }).update({ sending_until: lease, updated_at: now });
        return { kind: 'send', event: toEvent(existing), requestXml: existing.request_xml };
      }
      const row = {
        id: randomUUID(), document_id: documentId, tipo: 'e101101', status: 'PENDING', codigo_motivo: String(codigoMotivo), justificativa,
        request_xml: build(), sending_until: lease, created_at: now, updated_at: now,
      };
      await trx(this.t('nfse_events')).insert(row);
      return { kind: 'send', event: toEvent(row), requestXml: row.request_xml };
    });
  }

  /** Sefin registered it: the event, CANCELADA and invoice.canceled in one commit. */
  async registerCancellation(eventId: string, eventXml: string | null, registeredAt: Date) {
    return this.d.knex.transaction(async (trx) => {
      const ev = toEvent(await trx(this.t('nfse_events')).where({ id: eventId }).forUpdate().first());
      const now = this.d.now();
      await trx(this.t('nfse_events')).where({ id: eventId }).update({
        status: 'REGISTERED', event_xml: eventXml, registered_at: registeredAt, sending_until: null, last_outcome: null, next_check_at: null, updated_at: now,
      });
      const docRow = await trx(this.t('nfse_documents')).where({ id: ev.documentId }).forUpdate().first('status');
      if (docRow.status !== 'CANCELADA') {
        await trx(this.t('nfse_documents')).where({ id: ev.documentId }).update({ status: 'CANCELADA', canceled_at: registeredAt, updated_at: now });
        await this.documents.history(trx, ev.documentId, docRow.status, 'CANCELADA', 'event:e101101', ev.justificativa, { eventId });
        const doc = toNfseRecord(await trx(this.t('nfse_documents')).select(trx.raw('*')).where({ id: ev.documentId }).first());
        await this.d.enqueueEvent(trx, {
          type: 'invoice.canceled', partnerId: doc.partnerId,
          data: { ...nfseEventData(doc), justificativa: ev.justificativa, codigoMotivo: ev.codigoMotivo, canceladaEm: registeredAt.toISOString() },
        });
      }
      return toEvent(await trx(this.t('nfse_events')).where({ id: eventId }).first());
    });
  }

  async reject(eventId: string, erros: Erro[]): Promise<NfseEventRecord> {
    const now = this.d.now();
    await this.d.knex(this.t('nfse_events')).where({ id: eventId, status: 'PENDING' }).update({ status: 'REJECTED', erros: JSON.stringify(erros), sending_until: null, last_outcome: null, next_check_at: null, updated_at: now });
    return toEvent(await this.d.knex(this.t('nfse_events')).where({ id: eventId }).first());
  }

  /**
   * No answer: the event stays PENDING, its lease released so the same request completes it. One
   * that may have reached Sefin (`unknown`, now or before) is consulted on the reconciliation
   * schedule until Sefin's record settles it; one that certainly did not waits for its request.
   */
  async release(eventId: string, outcome: 'failed' | 'unknown'): Promise<NfseEventRecord> {
    return this.d.knex.transaction(async (trx) => {
      const row = await trx(this.t('nfse_events')).where({ id: eventId }).forUpdate().first('created_at', 'last_outcome', 'check_attempts');
      const now = this.d.now();
      const uncertain = outcome === 'unknown' || row.last_outcome === 'unknown';
      await trx(this.t('nfse_events')).where({ id: eventId }).update({
        sending_until: null, updated_at: now, last_outcome: uncertain ? 'unknown' : 'failed',
        next_check_at: uncertain ? nextCheckAt(new Date(row.created_at), Number(row.check_attempts), now) : null,
      });
      return toEvent(await trx(this.t('nfse_events')).where({ id: eventId }).first());
    });
  }

  /**
   * Pending events whose last send may have been registered and whose check is due, for this
   * node's reconciliation round (SKIP LOCKED; a live send is left alone). Each is leased while it is
   * consulted, so a repeated request meanwhile answers 409, and moved to its next check.
   */
  async claimDue(limit: number): Promise<NfseEventRecord[]> {
    return this.d.knex.transaction(async (trx) => {
      const now = this.d.now();
      const rows = await trx(this.t('nfse_events')).where({ status: 'PENDING', last_outcome: 'unknown' }).whereNotNull('next_check_at').where('next_check_at', '<=', now)
        .where((q) => q.whereNull('sending_until').orWhere('sending_until', '<=', now))
        .orderBy('next_check_at').limit(limit).forUpdate().skipLocked();
      const lease = new Date(now.getTime() + SEND_LEASE_MS);
      for (const r of rows) {
        const attempts = Number(r.check_attempts) + 1;
        await trx(this.t('nfse_events')).where({ id: r.id }).update({
          sending_until: lease, check_attempts: attempts, next_check_at: nextCheckAt(new Date(r.created_at), attempts, now), updated_at: now,
        });
      }
      return rows.map(toEvent);
    });
  }

  /** Sefin holds the NFS-e not canceled: the lost send was not registered; the event waits for its request (nao_enviado). */
  async notRegistered(eventId: string): Promise<NfseEventRecord> {
    const now = this.d.now();
    await this.d.knex(this.t('nfse_events')).where({ id: eventId, status: 'PENDING' }).update({ sending_until: null, last_outcome: 'failed', next_check_at: null, updated_at: now });
    return toEvent(await this.d.knex(this.t('nfse_events')).where({ id: eventId }).first());
  }

  /** A consult that got no answer: the lease goes, the next check stays as claimDue scheduled it. */
  async unlease(eventId: string): Promise<void> {
    await this.d.knex(this.t('nfse_events')).where({ id: eventId }).update({ sending_until: null, updated_at: this.d.now() });
  }
}

export function unavailable(event: NfseEventRecord, situacao: 'nao_enviado' | 'indeterminada'): DomainError {
  return new DomainError('AUTORIDADE_INDISPONIVEL', { situacao, eventoId: event.id });
}
