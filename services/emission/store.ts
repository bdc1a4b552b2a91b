import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import type { ResolvedItemView } from '../../lib/classification/note-groups.js';
import { eventData } from '../../lib/emission/document.js';
import { OPEN_STATUSES, isTerminal, type DocumentStatus, type Transition } from '../../lib/emission/state.js';
import { nextCheckAt } from '../../lib/emission/reconciliation.js';
import { isStaleAnswer, transmissionStart, type TransmissionStart } from '../../lib/emission/transmission.js';
import type { Model } from '../../lib/nfe/types.js';
import { statementsOf } from '../shared/direct-transaction.js';
import { billingCte, transitionStatement, type Cte, type DocumentTables, type GroupedColumn } from './transition-sql.js';
import { COLUMNS, toRecord, type AfterInsert, type AuthorityDetails, type NewDocument, type NumberSpace, type StoreDeps } from './document-row.js';
import { NumberingStore } from './numbering-store.js';
import { ANSWER_COLUMNS, ANSWER_GUARD, OutcomeGroups, writeAnswers } from './outcome-group.js';
import type { PendingNote } from './numbering-group.js';

/**
 * Persistence of documents: reads, the transmission's state changes, history, billing and their
 * events. Every state change and its public event commit in one transaction (outbox); a new
 * document and its number are numbering-store.ts's. No method calls another service.
 */

/** What a resend transmits instead of the stored document (same key). */
export interface ResendContent {
  xml: string;
  digestValue: string;
  qrCode?: string;
  requestBody: unknown;
  amountCents: bigint;
  accessKey: string;
  tributacaoResolvida?: ResolvedItemView[] | null;
}

/** markTransmitting's answer: the attempt started, or why not, with the document as it is now. */
export type TransmissionClaim =
  | { kind: 'started'; doc: DocumentRecord }
  | { kind: Exclude<TransmissionStart['kind'], 'start'>; doc: DocumentRecord };

/** What an authority's answer stores with the document (document-row.ts). */
export type { AuthorityDetails } from './document-row.js';

/** A terminal answer to the attempt `known` started (as this process wrote it), and the record it makes. */
interface OwnOutcome {
  known: DocumentRecord;
  record: DocumentRecord;
  trigger: string;
  details: AuthorityDetails;
  event: { type: string; partnerId: string; data: Record<string, unknown> } | undefined;
}

/** What an own terminal answer writes beyond ANSWER_COLUMNS, and its guard beyond ANSWER_GUARD: the key and tpEmis it was sent with. */
const OUTCOME_COLUMNS: { set: GroupedColumn[]; guard: GroupedColumn[] } = {
  set: [
    ...ANSWER_COLUMNS,
    { name: 'protocol', type: 'text', keepWhenNull: true }, { name: 'authorized_at', type: 'timestamptz', keepWhenNull: true },
    { name: 'erros', type: 'jsonb', keepWhenNull: true }, { name: 'authorized_xml', type: 'text', keepWhenNull: true },
  ],
  guard: [...ANSWER_GUARD, { name: 'access_key', type: 'text' }, { name: 'tp_emis', type: 'smallint' }],
};

export class DocumentStore {
  private readonly numbering: NumberingStore;
  /** Terminal answers of this node's own transmissions, written together under load (outcome-group.ts). */
  private readonly outcomes?: OutcomeGroups<OwnOutcome>;

  constructor(private readonly d: StoreDeps) {
    this.numbering = new NumberingStore(d);
    if (d.eventsCte) this.outcomes = new OutcomeGroups((o) => o.known.id, (outcomes) => this.writeOutcomes(outcomes));
  }

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  private select(q: Knex | Knex.Transaction) {
    return q(this.t('documents')).select(q.raw(COLUMNS));
  }

  async get(id: string): Promise<DocumentRecord | undefined> {
    const row = await this.select(this.d.knex).where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  async findByNumber(space: NumberSpace, number: number): Promise<DocumentRecord | undefined> {
    const row = await this.select(this.d.knex).where({ issuer_id: space.issuerId, model: space.model, series: space.series, environment: space.environment, number }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The document an Idempotency-Key is bound to, with the fingerprint of the request that bound it. */
  async findByIdempotencyKey(partnerId: string, model: Model, key: string): Promise<{ doc: DocumentRecord; fingerprint: string | null } | undefined> {
    const row = await this.select(this.d.knex).select('idempotency_fingerprint').where({ partner_id: partnerId, model, idempotency_key: key }).first();
    return row ? { doc: toRecord(row), fingerprint: row.idempotency_fingerprint ?? null } : undefined;
  }

  async xmlOf(id: string): Promise<{ transmitted: string | null; authorized: string | null } | undefined> {
    const row = await this.d.knex(this.t('documents')).where({ id }).first('transmitted_xml', 'authorized_xml');
    return row ? { transmitted: row.transmitted_xml, authorized: row.authorized_xml } : undefined;
  }

  async nextNumber(space: NumberSpace): Promise<number> {
    const row = await this.d.knex(this.t('number_sequences'))
      .where({ issuer_id: space.issuerId, model: space.model, series: space.series, environment: space.environment }).first('next_number');
    return row ? Number(row.next_number) : 1;
  }

  /** A new document with the series' next number (services/emission/numbering-store.ts). */
  createNumbered(doc: Omit<NewDocument, 'cnf'>, build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>, next?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    return this.numbering.createNumbered(doc, build, next);
  }

  /** New documents of one series queued together, numbered at once (services/emission/numbering-store.ts). */
  createNumberedGroup(notes: readonly PendingNote[]): Promise<Array<PromiseSettledResult<DocumentRecord>>> {
    return this.numbering.createNumberedGroup(notes);
  }

  /** A new document under the integrator's own `numero` (services/emission/numbering-store.ts). */
  createWithNumber(doc: NewDocument, number: number, built: BuiltDocument, then?: AfterInsert): Promise<DocumentRecord> {
    return this.numbering.createWithNumber(doc, number, built, then);
  }

  /**
   * Starts a transmission attempt and commits, before the authority is called (API.md): the document
   * becomes TRANSMITTING with the next attempt number and a lease. lib/emission/transmission.ts
   * decides on the row held locked, so of two requests or nodes racing for one document exactly one
   * starts; the others get the reason and the current record. A resend replaces the stored body and
   * XML (same key). `expectedAttempt`: the attempt the caller's decision was based on.
   */
  async markTransmitting(id: string, trigger: 'emission' | 'resend' | 'retransmit' | 'retry', opts: { replace?: ResendContent; expectedAttempt?: number } = {}): Promise<TransmissionClaim> {
    return this.d.knex.transaction(async (trx) => {
      const locked = await this.select(trx).where({ id }).forUpdate().first();
      if (!locked) throw new Error(`document ${id} vanished`);
      const current = toRecord(locked);
      const now = this.d.now();
      const decision = transmissionStart(current, now, opts.expectedAttempt);
      if (decision.kind !== 'start') return { kind: decision.kind, doc: current };
      const { replace } = opts;
      if (replace && replace.accessKey !== current.accessKey) throw new Error(`resend rebuilt key ${replace.accessKey}, stored ${current.accessKey}`);
      const changes = {
        status: 'TRANSMITTING', updated_at: now, transmissions: decision.attempt, transmitting_until: decision.leaseUntil,
        next_check_at: nextCheckAt(current.createdAt, 0, now),
        ...(replace ? { transmitted_xml: replace.xml, digest_value: replace.digestValue, qr_code: replace.qrCode ?? null, request_body: JSON.stringify(replace.requestBody ?? null), amount_cents: replace.amountCents.toString(), tributacao_resolvida: replace.tributacaoResolvida ? JSON.stringify(replace.tributacaoResolvida) : null } : {}),
      };
      await this.updateWithHistory(trx, id, changes, current.status, 'TRANSMITTING', trigger, null, { attempt: decision.attempt });
      // The row is locked: what it is now is what was read plus what was written (no re-read).
      return { kind: 'started', doc: toRecord({ ...locked, ...changes, has_transmitted_xml: locked.has_transmitted_xml || !!replace }) };
    });
  }

  /**
   * Applies what the authority said for attempt `attempt`. A document already terminal is left
   * alone (the first outcome wins), so each terminal state writes exactly one event; an answer for
   * an attempt that is no longer the latest is only kept in the history (lib/emission/transmission.ts).
   * Any answer of the latest attempt ends its lease: nothing of it is in flight any more.
   */
  async applyOutcome(id: string, attempt: number, trigger: string, tr: Transition, details: AuthorityDetails = {}, known?: DocumentRecord): Promise<DocumentRecord> {
    if (known && known.id === id && known.transmissions === attempt) {
      const applied = await this.applyOwnTerminalOutcome(known, trigger, tr, details);
      if (applied) return applied;
    }
    return this.d.knex.transaction(async (trx) => {
      // The whole record under the lock: every answer below is built from it and what is written.
      const row = await this.select(trx).where({ id }).forUpdate().first();
      if (!row) throw new Error(`document ${id} vanished`);
      const from = row.status as DocumentStatus;
      const now = this.d.now();
      if (isTerminal(from)) return toRecord(row);
      const latest = Number(row.transmissions);
      if (isStaleAnswer(attempt, latest)) {
        await this.history(trx, id, from, from, trigger, `Resposta da transmissão ${attempt} descartada: a transmissão ${latest} é a vigente.`, {
          attempt, currentAttempt: latest, outcome: tr.to,
          ...(details.protocol ? { protocol: details.protocol } : {}), ...(details.erros ? { erros: details.erros } : {}),
        });
        return toRecord(row);
      }
      if (tr.to === null) {
        const changes = { motivo: tr.motivo, updated_at: now, transmitting_until: null };
        await trx(this.t('documents')).where({ id }).update(changes);
        await this.history(trx, id, from, from, trigger, tr.motivo, null);
        return toRecord({ ...row, ...changes });
      }
      const terminal = isTerminal(tr.to);
      const { authorizedXml } = details;
      const changes = {
        status: tr.to, motivo: tr.motivo, updated_at: now, transmitting_until: null,
        next_check_at: terminal ? null : nextCheckAt(new Date(row.created_at), Number(row.check_attempts), now),
        ...(details.protocol !== undefined ? { protocol: details.protocol } : {}),
        ...(details.authorizedAt ? { authorized_at: details.authorizedAt } : {}),
        ...(details.erros ? { erros: JSON.stringify(details.erros) } : {}),
      };
      const record = toRecord({ ...row, ...changes, has_authorized_xml: row.has_authorized_xml || !!authorizedXml });
      // The update, its history row, the billing counter and the outbox event in one statement.
      const event = tr.event ? { type: tr.event, partnerId: record.partnerId, data: eventData(record) } : undefined;
      const outbox = event && this.d.eventCte ? this.d.eventCte('event', event) : undefined;
      const also = [...(tr.to === 'AUTHORIZED' ? [billingCte(this.t('billing_counters'), [record], 'changed')] : []), ...(outbox ? [outbox] : [])];
      await this.updateWithHistory(trx, id, { ...changes, ...(authorizedXml ? { authorized_xml: authorizedXml } : {}) }, from, tr.to, trigger, tr.motivo, details.erros ? { erros: details.erros } : null, also);
      if (outbox) outbox.written();
      else if (event) await this.d.enqueueEvent(trx, event);
      return record;
    });
  }

  /**
   * The terminal outcome of the attempt this process started itself (`known`, as it wrote it), in
   * one statement and no transaction (issue 18: BEGIN, the locking read and COMMIT were three of a
   * note's round trips), together with the other notes answered meanwhile (outcome-group.ts). The
   * update applies only while the row is still TRANSMITTING under that attempt with the key and
   * tpEmis it was sent with, so it never overwrites a newer attempt or a state another node
   * reached; the history row, billing count and outbox event are written only if it applied.
   * Otherwise (undefined) applyOutcome decides under the row lock as before.
   */
  private async applyOwnTerminalOutcome(known: DocumentRecord, trigger: string, tr: Transition, details: AuthorityDetails): Promise<DocumentRecord | undefined> {
    if (tr.to === null || !isTerminal(tr.to) || known.status !== 'TRANSMITTING' || !this.outcomes) return undefined;
    const now = this.d.now();
    const record: DocumentRecord = {
      ...known, status: tr.to, motivo: tr.motivo, updatedAt: now, transmittingUntil: null, nextCheckAt: null,
      protocol: details.protocol !== undefined ? details.protocol : known.protocol, authorizedAt: details.authorizedAt ?? known.authorizedAt,
      erros: details.erros ?? known.erros, hasAuthorizedXml: known.hasAuthorizedXml || !!details.authorizedXml,
    };
    const event = tr.event ? { type: tr.event, partnerId: record.partnerId, data: eventData(record) } : undefined;
    return (await this.outcomes.write({ known, record, trigger, details, event })) ? record : undefined;
  }

  /** The statement of a group of own terminal answers (outcome-group.ts): the ids it changed. */
  private writeOutcomes(outcomes: readonly OwnOutcome[]): Promise<ReadonlySet<string>> {
    const answers = outcomes.map(({ known, record, trigger, details, event }) => ({
      id: known.id, transmissions: known.transmissions, to: record.status, motivo: record.motivo, at: record.updatedAt, trigger, erros: details.erros, event,
      set: {
        status: record.status, motivo: record.motivo, updated_at: record.updatedAt, transmitting_until: null, next_check_at: null,
        protocol: details.protocol ?? null, authorized_at: details.authorizedAt ?? null, erros: details.erros ? JSON.stringify(details.erros) : null, authorized_xml: details.authorizedXml ?? null,
      },
      guard: { access_key: known.accessKey, tp_emis: known.tpEmis },
    }));
    const billed = outcomes.filter((o) => o.record.status === 'AUTHORIZED').map((o) => o.record);
    return writeAnswers(this.d, this.tables(), OUTCOME_COLUMNS, answers, billed.length ? [billingCte(this.t('billing_counters'), billed, 'changed')] : []);
  }

  /**
   * Claims due open documents for this node: SKIP LOCKED lets several nodes share the work, and
   * moving next_check_at forward in the same transaction keeps a claimed document from being
   * claimed again until its next slot. A document whose transmission is in flight (its lease
   * alive: lib/emission/transmission.ts isInFlight) is left to that transmission until it expires.
   */
  async claimDue(limit: number): Promise<DocumentRecord[]> {
    return this.d.knex.transaction(async (trx) => {
      const now = this.d.now();
      const rows = await trx(this.t('documents')).whereIn('status', [...OPEN_STATUSES]).whereNotNull('next_check_at').where('next_check_at', '<=', now)
        .where((q) => q.whereNot('status', 'TRANSMITTING').orWhereNull('transmitting_until').orWhere('transmitting_until', '<=', now))
        .orderBy('next_check_at').limit(limit).forUpdate().skipLocked().select('id', 'created_at', 'check_attempts');
      for (const r of rows) {
        const attempts = Number(r.check_attempts) + 1;
        await trx(this.t('documents')).where({ id: r.id }).update({ check_attempts: attempts, next_check_at: nextCheckAt(new Date(r.created_at), attempts, now) });
      }
      if (!rows.length) return [];
      return (await this.select(trx).whereIn('id', rows.map((r: any) => r.id))).map(toRecord);
    });
  }

  async list(f: ListFilter): Promise<DocumentRecord[]> {
    const q = this.select(this.d.knex).where({ partner_id: f.partnerId, model: f.model });
    if (f.status) q.where({ status: f.status });
    if (f.indeterminate) q.whereIn('status', [...OPEN_STATUSES]);
    if (f.issuerId) q.where({ issuer_id: f.issuerId });
    if (f.environment) q.where({ environment: f.environment });
    if (f.number !== undefined) q.where({ number: f.number });
    if (f.series !== undefined) q.where({ series: f.series });
    if (f.from) q.where('created_at', '>=', f.from);
    if (f.to) q.where('created_at', '<', f.to);
    if (f.after) q.whereRaw('(created_at, id) < (?, ?)', [f.after.createdAt, f.after.id]);
    const rows = await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit);
    return rows.map(toRecord);
  }

  async usage(partnerId: string, period: string): Promise<{ model: string; environment: number; keyKind: string; billable: boolean; count: number }[]> {
    // A counter is the sum of its slots (transition-sql.ts billingSlot).
    const rows = await this.d.knex(this.t('billing_counters')).where({ partner_id: partnerId, period })
      .select('model', 'environment', 'key_kind', 'billable').sum({ count: 'count' })
      .groupBy('model', 'environment', 'key_kind', 'billable').orderBy(['model', 'environment', 'key_kind']);
    return rows.map((r: any) => ({ model: r.model, environment: Number(r.environment), keyKind: r.key_kind, billable: r.billable, count: Number(r.count) }));
  }

  private tables(): DocumentTables {
    return { documents: this.t('documents'), history: this.t('document_history') };
  }

  /**
   * A state change and its history row in one statement (a writable CTE): on the hot path every
   * round trip counts (issue 18), and both still commit together. For a row `trx` holds locked.
   */
  private async updateWithHistory(trx: Knex.Transaction, id: string, changes: Record<string, Knex.Value | undefined>, from: string | null, to: string, trigger: string, motivo: string | null, detail: unknown,
    also: Cte[] = []): Promise<void> {
    const statement = transitionStatement(this.tables(), id, changes, { from, to, trigger, motivo: motivo ?? null, detail, at: this.d.now() }, { also });
    await statementsOf(trx).query(statement.sql, statement.bindings, { prepare: true });
  }

  private async history(trx: Knex.Transaction, documentId: string, from: string | null, to: string, trigger: string, motivo: string | null, detail: unknown): Promise<void> {
    await trx(this.t('document_history')).insert({ document_id: documentId, from_status: from, to_status: to, trigger, motivo, detail: detail ? JSON.stringify(detail) : null, at: this.d.now() });
  }
}

export interface ListFilter {
  partnerId: string;
  model: Model;
  status?: DocumentStatus;
  indeterminate?: boolean;
  issuerId?: string;
  /** tpAmb: what an ek_test_ key lists (services/emission/reader.ts). */
  environment?: 1 | 2;
  number?: number;
  series?: number;
  from?: Date;
  to?: Date;
  after?: { createdAt: Date; id: string };
  limit: number;
}
