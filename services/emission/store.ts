import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord, Erro } from '../../lib/emission/document.js';
import type { ResolvedItemView } from '../../lib/classification/note-groups.js';
import { eventData } from '../../lib/emission/document.js';
import { OPEN_STATUSES, isTerminal, type DocumentStatus, type Transition } from '../../lib/emission/state.js';
import { nextCheckAt } from '../../lib/emission/reconciliation.js';
import { isStaleAnswer, transmissionStart, type TransmissionStart } from '../../lib/emission/transmission.js';
import { DomainError } from '../../lib/errors/index.js';
import { checkNumberFree, skipReserved } from '../../lib/emission/inutilizacao.js';
import type { Model } from '../../lib/nfe/types.js';
import { firstDocumentCte } from './partner-activity.js';
import { checkNumberFreeForIdentity, ensureSequence, type SequenceKey } from './fiscal-identity.js';
import type { OutboxCte } from '../mixins/outbox.mixin.js';
import { prepared } from '../shared/prepared.js';
import { directTransaction, RollBack, statementsOf, supportsDirectTransactions, type DirectTx } from '../shared/direct-transaction.js';
import { runStatement } from '../shared/pg-statement.js';
import { billingCte, transitionStatement, type Cte, type DocumentTables } from './transition-sql.js';

/**
 * Persistence of documents, numbering, history, billing and their events. Every state change and
 * its public event commit in one transaction (outbox). No method calls another service.
 */
export interface StoreDeps {
  knex: Knex;
  schema: string;
  now(): Date;
  enqueueEvent(trx: Knex.Transaction, event: { type: string; partnerId: string; data: Record<string, unknown> }): Promise<unknown>;
  /** The outbox row as a writable CTE (services/mixins/outbox.mixin.ts); without it, enqueueEvent. */
  eventCte?(name: string, event: { type: string; partnerId: string; data: Record<string, unknown> }, onlyIfRowsIn?: string, opts?: { handOff?: boolean }): OutboxCte;
}

export interface NumberSpace {
  issuerId: string;
  /** The issuer's CNPJ: numbering continues across its issuer rows (services/emission/fiscal-identity.ts). */
  cnpj: string;
  model: Model;
  series: number;
  environment: 1 | 2;
}

export interface NewDocument extends NumberSpace {
  partnerId: string;
  uf: string;
  keyKind: 'live' | 'test' | 'jwt';
  amountCents: bigint;
  requestBody: unknown;
  idempotencyKey: string | null;
  /** lib/idempotency/fingerprint.ts bodyFingerprint of the request; null without a key. */
  idempotencyFingerprint: string | null;
  /** tributacaoResolvida[] of the answer (assisted taxation), stored to answer a retry the same. */
  tributacaoResolvida?: ResolvedItemView[] | null;
  cnf: string;
  tpEmis: number;
  emittedAt: Date;
}

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

export interface AuthorityDetails {
  protocol?: string;
  authorizedAt?: Date;
  authorizedXml?: string;
  erros?: Erro[];
}

export const COLUMNS = `id, partner_id, issuer_id, model, series, number, environment, uf, key_kind, access_key, cnf, tp_emis,
  emitted_at, status, amount_cents, protocol, authorized_at, erros, motivo, created_at, updated_at, next_check_at,
  check_attempts, transmissions, transmitting_until, qr_code, (transmitted_xml is not null) as has_transmitted_xml, (authorized_xml is not null) as has_authorized_xml,
  contingency_reason, contingency_justification, contingency_deadline, tributacao_resolvida`;

const PG_UNIQUE_VIOLATION = '23505';
/** migrations/emission 010: one document per partner, model and Idempotency-Key. */
const IDEMPOTENCY_INDEX = 'documents_idempotency_unique';

/**
 * The request's Idempotency-Key was bound to a document by another request first (the unique
 * index refused this insert, and its transaction released the number): answer that document.
 */
export class KeyAlreadyBound extends Error {
  constructor(readonly key: string) {
    super(`idempotency key already bound: ${key}`);
    this.name = 'KeyAlreadyBound';
  }
}

/** Whether an insert was refused by `index`, the unique index binding an Idempotency-Key (NF-e's, or NFS-e's). */
export function bindingRefused(err: any, index: string = IDEMPOTENCY_INDEX): boolean {
  return err?.code === PG_UNIQUE_VIOLATION && (err.constraint === index || String(err.message ?? '').includes(index));
}
const MAX_NUMBER = 999_999_999;
/** Locks a space's sequence row and advances it; the number it held (claimNext). */
const CLAIM_SQL = 'update ?? set next_number = next_number + 1 where issuer_id = ? and model = ? and series = ? and environment = ? returning next_number - 1 as number';

/** A hook run in the creating transaction after the insert (contingency entry: services/emission/contingency-store.ts). */
export type AfterInsert = (trx: Knex.Transaction, created: DocumentRecord) => Promise<DocumentRecord>;

export function toRecord(r: any): DocumentRecord {
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return {
    id: r.id, partnerId: r.partner_id, issuerId: r.issuer_id, model: r.model, series: Number(r.series), number: Number(r.number),
    environment: Number(r.environment) as 1 | 2, uf: r.uf, keyKind: r.key_kind, accessKey: r.access_key, cnf: r.cnf, tpEmis: Number(r.tp_emis),
    emittedAt: new Date(r.emitted_at), status: r.status, amountCents: BigInt(r.amount_cents), protocol: r.protocol,
    authorizedAt: date(r.authorized_at), erros: typeof r.erros === 'string' ? JSON.parse(r.erros) : r.erros ?? null, motivo: r.motivo,
    createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), nextCheckAt: date(r.next_check_at),
    checkAttempts: Number(r.check_attempts), transmissions: Number(r.transmissions), transmittingUntil: date(r.transmitting_until), qrCode: r.qr_code ?? null,
    hasTransmittedXml: !!r.has_transmitted_xml, hasAuthorizedXml: !!r.has_authorized_xml,
    contingencia: r.contingency_deadline ? { motivo: r.contingency_reason, justificativa: r.contingency_justification, prazo: new Date(r.contingency_deadline) } : null,
    tributacaoResolvida: typeof r.tributacao_resolvida === 'string' ? JSON.parse(r.tributacao_resolvida) : r.tributacao_resolvida ?? null,
  };
}

export class DocumentStore {
  constructor(private readonly d: StoreDeps) {}

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

  /**
   * Allocates the next number of the space and stores the document built with it, in one
   * transaction holding the sequence row lock: concurrent nodes queue on the lock, and a build that
   * throws rolls the number back, so numbers stay consecutive. Numbers already taken by a
   * passthrough `numero` are skipped.
   */
  async createNumbered(doc: Omit<NewDocument, 'cnf'>, build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>, next?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    const key = { issuer_id: doc.issuerId, model: doc.model, series: doc.series, environment: doc.environment };
    try {
      return await this.numbered(doc, key, build, next);
    } catch (err) {
      if (bindingRefused(err)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      throw err;
    }
  }

  /**
   * Issue 18: the sequence row is locked from the first statement to the commit, and every note
   * of the series queues on it, so what runs in between is counted in round trips: claim (lock +
   * advance, one statement), the build, the insert with its history and first-document flag, only
   * if the number is free (one), commit. A build that throws rolls the advance back with the rest.
   * A new note that will be transmitted at once takes numberedDirect first (BEGIN sent with the
   * claim); the general path below runs when it cannot (PGlite, a hook after the insert, a new
   * sequence, a number held by a passthrough note or an inutilização).
   */
  private async numbered(doc: Omit<NewDocument, 'cnf'>, key: SequenceKey, build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>, then?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    if (then === 'transmit' && supportsDirectTransactions(this.d.knex)) {
      try {
        return await this.numberedDirect(doc, key, build);
      } catch (err) {
        if (!(err instanceof RollBack)) throw err;
      }
    }
    return this.d.knex.transaction(async (trx) => {
      let claimed = await this.claimNext(trx, key);
      if (claimed === undefined) {
        await ensureSequence(trx, this.d.schema, key, doc.cnpj);
        claimed = await this.claimNext(trx, key);
        if (claimed === undefined) throw new Error(`number sequence ${JSON.stringify(key)} missing after ensureSequence`);
      }
      const exhausted = () => new DomainError('UNPROCESSABLE_ENTITY', { serie: doc.series }, 'Numeração da série esgotada; use outra série.');
      if (claimed > MAX_NUMBER) throw exhausted();
      // The usual case: the claimed number is free. The insert checks it itself (it runs after the
      // lock was taken, so it sees every document and inutilização committed before).
      const first = await build(claimed);
      const stored = await this.writeCreated(statementsOf(trx), { ...doc, cnf: first.cnf }, claimed, first.built, then === 'transmit', key);
      if (stored) return typeof then === 'function' ? then(trx, stored) : stored;
      // Rare: a passthrough number or an inutilização holds it; skip ahead and build again.
      const number = await this.firstFree(trx, key, claimed);
      if (number > MAX_NUMBER) throw exhausted();
      await trx(this.t('number_sequences')).where(key).update({ next_number: number + 1 });
      const { built, cnf } = await build(number);
      return this.insertCreated(trx, { ...doc, cnf }, number, built, then);
    });
  }

  /**
   * The usual numbering (a sequence row that exists, a free number, nothing to run after the
   * insert) as `numbered` does it, in two round trips fewer (services/shared/direct-transaction.ts):
   * BEGIN travels with the claim, the insert binds as before, then COMMIT. Anything unusual rolls
   * back (the claim with it) and `numbered` runs its general path from the start.
   */
  private numberedDirect(doc: Omit<NewDocument, 'cnf'>, key: SequenceKey, build: (number: number) => Promise<{ built: BuiltDocument; cnf: string }>): Promise<DocumentRecord> {
    return directTransaction(this.d.knex, CLAIM_SQL, [this.t('number_sequences'), key.issuer_id, key.model, key.series, key.environment], async (tx, rows) => {
      if (!rows[0]) throw new RollBack('no sequence row yet');
      const claimed = Number(rows[0].number);
      if (claimed > MAX_NUMBER) throw new RollBack('numbering exhausted');
      const { built, cnf } = await build(claimed);
      const stored = await this.writeCreated(tx, { ...doc, cnf }, claimed, built, true, key);
      if (!stored) throw new RollBack('claimed number held by a document or an inutilização');
      return stored;
    });
  }

  /**
   * Locks the space's sequence row and advances it in one statement; the number it held, or
   * undefined when the space has no row yet. The same lock as SELECT … FOR UPDATE (an UPDATE takes
   * the row's exclusive lock), held to the commit.
   */
  private async claimNext(trx: Knex.Transaction, key: SequenceKey): Promise<number | undefined> {
    const { rows } = await prepared(trx.raw(CLAIM_SQL, [this.t('number_sequences'), key.issuer_id, key.model, key.series, key.environment]));
    return rows[0] ? Number(rows[0].number) : undefined;
  }

  /**
   * The first number at or after `from` held by no document and by no inutilização that holds its
   * numbers (lib/emission/inutilizacao.ts), read under the sequence row lock. One statement in the
   * usual case (`from` free); each statement runs after the lock was taken, so it sees every
   * document committed before (READ COMMITTED takes a snapshot per statement: this check must not
   * share the claiming statement, whose snapshot predates its wait for the lock).
   */
  private async firstFree(trx: Knex.Transaction, key: SequenceKey, from: number): Promise<number> {
    const where = 'issuer_id = ? and model = ? and series = ? and environment = ?';
    const k = [key.issuer_id, key.model, key.series, key.environment];
    const { rows } = await trx.raw(
      `select exists(select 1 from ?? where ${where} and number = ?) as taken,
        (select coalesce(json_agg(json_build_object('start', start_number, 'end', end_number, 'status', status)), '[]'::json)
          from ?? where ${where} and status <> 'REJECTED' and end_number >= ?) as ranges`,
      [this.t('documents'), ...k, from, this.t('inutilizacoes'), ...k, from],
    );
    const raw = typeof rows[0].ranges === 'string' ? JSON.parse(rows[0].ranges) : rows[0].ranges;
    const ranges = (raw as any[]).map((r) => ({ start: Number(r.start), end: Number(r.end), status: r.status }));
    let number = skipReserved(from, ranges);
    if (number === from && !rows[0].taken) return number;
    while (await trx(this.t('documents')).where({ ...key, number }).first('id')) number = skipReserved(number + 1, ranges);
    return number;
  }

  /**
   * Stores a document under the integrator's own `numero`; a number taken meanwhile is 409, one in
   * an inutilização range 409 NUMERO_INUTILIZADO. The sequence row is held FOR SHARE: passthrough
   * numbers do not wait for each other, but an inutilização claim (FOR UPDATE) and this check
   * never interleave.
   */
  async createWithNumber(doc: NewDocument, number: number, built: BuiltDocument, then?: AfterInsert): Promise<DocumentRecord> {
    const key = { issuer_id: doc.issuerId, model: doc.model, series: doc.series, environment: doc.environment };
    try {
      return await this.d.knex.transaction(async (trx) => {
        await ensureSequence(trx, this.d.schema, key, doc.cnpj);
        await trx(this.t('number_sequences')).where(key).forShare().first('next_number');
        await checkNumberFreeForIdentity(trx, this.d.schema, key, doc.cnpj, number);
        const ranges = await trx(this.t('inutilizacoes')).where(key).where('start_number', '<=', number).where('end_number', '>=', number).select('id', 'start_number', 'end_number', 'status');
        checkNumberFree(number, doc.series, ranges.map((r: any) => ({ id: r.id, start: Number(r.start_number), end: Number(r.end_number), status: r.status })));
        return this.insertCreated(trx, doc, number, built, then);
      });
    } catch (err: any) {
      if (bindingRefused(err)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      if (err?.code === PG_UNIQUE_VIOLATION) throw new DomainError('NUMERO_JA_UTILIZADO', { numero: number, serie: doc.series });
      throw err;
    }
  }

  /**
   * Inserts the document CREATED, then runs `then` in the same transaction. With 'transmit' it is
   * inserted already TRANSMITTING (attempt 1 and its lease, as markTransmitting would start it:
   * lib/emission/transmission.ts), with both history rows: a new document's first transmission
   * then costs no transaction of its own (issue 18). Crash-safe as the separate commit was: a
   * document left TRANSMITTING is taken over when its lease expires (the 2 minutes a CREATED one
   * also waits), consulted by key, and transmitted when the authority does not know it.
   */
  private async insertCreated(trx: Knex.Transaction, doc: NewDocument, number: number, built: BuiltDocument, then?: AfterInsert | 'transmit'): Promise<DocumentRecord> {
    const record = (await this.writeCreated(statementsOf(trx), doc, number, built, then === 'transmit'))!;
    return typeof then === 'function' ? then(trx, record) : record;
  }

  /**
   * insertCreated; with `ifFree`, only when no document of the space holds `number` and no
   * inutilização that is not REJECTED covers it (undefined: nothing was written). That check is
   * stricter than firstFree's (which lets lib/emission/inutilizacao.ts decide which ranges hold
   * numbers), so a refusal here only sends the caller to firstFree.
   */
  private async writeCreated(trx: DirectTx, doc: NewDocument, number: number, built: BuiltDocument, transmit: boolean, ifFree?: SequenceKey): Promise<DocumentRecord | undefined> {
    const now = this.d.now();
    const created = {
      id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, model: doc.model, series: doc.series, number, environment: doc.environment, uf: doc.uf,
      key_kind: doc.keyKind, access_key: built.accessKey, cnf: doc.cnf, tp_emis: doc.tpEmis, emitted_at: doc.emittedAt,
      status: 'CREATED', amount_cents: doc.amountCents.toString(), protocol: null, authorized_at: null, erros: null, motivo: null,
      request_body: JSON.stringify(doc.requestBody ?? null), tributacao_resolvida: doc.tributacaoResolvida ? JSON.stringify(doc.tributacaoResolvida) : null, transmitted_xml: built.xml, digest_value: built.digestValue, qr_code: built.qrCode ?? null,
      idempotency_key: doc.idempotencyKey, idempotency_fingerprint: doc.idempotencyFingerprint, created_at: now, updated_at: now, next_check_at: nextCheckAt(now, 0, now), check_attempts: 0, transmissions: 0, transmitting_until: null as Date | null,
    };
    const asRecord = (r: typeof created) => toRecord({ ...r, has_transmitted_xml: true, has_authorized_xml: false });
    const history: Knex.Value[][] = [[created.id, null, 'CREATED', 'emission', null, JSON.stringify({ accessKey: built.accessKey, number }), now]];
    let row = created;
    if (transmit) {
      const start = transmissionStart(asRecord(created), now);
      if (start.kind !== 'start') throw new Error(`a new document cannot start its transmission (${start.kind})`);
      row = { ...created, status: 'TRANSMITTING', transmissions: start.attempt, transmitting_until: start.leaseUntil };
      history.push([created.id, 'CREATED', 'TRANSMITTING', 'emission', null, JSON.stringify({ attempt: start.attempt }), now]);
    }
    // One statement: the document, the partner's first-document flag and the history rows
    // (writable CTEs; the history's foreign key is checked at the end of the statement).
    const columns = Object.keys(row);
    const names = columns.map(() => '??').join(', ');
    const values = columns.map(() => '?').join(', ');
    const historyColumns = 'document_id, from_status, to_status, trigger, motivo, detail, at';
    if (!ifFree) {
      const flag = firstDocumentCte('first_document', this.d.schema, row);
      await trx.query(
        `with created as (insert into ?? (${names}) values (${values})), ${flag.sql}
         insert into ?? (${historyColumns}) values ${history.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        [this.t('documents'), ...columns, ...(Object.values(row) as Knex.Value[]), ...flag.bindings, this.t('document_history'), ...history.flat()],
        { prepare: true },
      );
    } else {
      const k = [ifFree.issuer_id, ifFree.model, ifFree.series, ifFree.environment];
      const space = 'issuer_id = ? and model = ? and series = ? and environment = ?';
      const flag = firstDocumentCte('first_document', this.d.schema, row, 'created');
      // Typed: values in a FROM list get no type from the target columns.
      const typed = '(?::uuid, ?::varchar, ?::varchar, ?::varchar, ?::text, ?::jsonb, ?::timestamptz)';
      const { rows } = await trx.query(
        `with created as (insert into ?? (${names}) select ${values}
           where not exists (select 1 from ?? where ${space} and number = ?)
             and not exists (select 1 from ?? where ${space} and status <> 'REJECTED' and start_number <= ? and end_number >= ?)
           returning id), ${flag.sql}
         insert into ?? (${historyColumns}) select h.* from created, (values ${history.map(() => typed).join(', ')}) as h (${historyColumns})
         returning document_id`,
        [this.t('documents'), ...columns, ...(Object.values(row) as Knex.Value[]),
          this.t('documents'), ...k, number, this.t('inutilizacoes'), ...k, number, number,
          ...flag.bindings, this.t('document_history'), ...history.flat()],
        { prepare: true },
      );
      if (!rows.length) return undefined;
    }
    // Built from what was written: no re-read while the sequence row is locked.
    return asRecord(row);
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
      const also = [...(tr.to === 'AUTHORIZED' ? [this.countEmission(record)] : []), ...(outbox ? [outbox] : [])];
      await this.updateWithHistory(trx, id, { ...changes, ...(authorizedXml ? { authorized_xml: authorizedXml } : {}) }, from, tr.to, trigger, tr.motivo, details.erros ? { erros: details.erros } : null, also);
      if (outbox) outbox.written();
      else if (event) await this.d.enqueueEvent(trx, event);
      return record;
    });
  }

  /**
   * The terminal outcome of the attempt this process started itself (`known`, as it wrote it), in
   * one statement and no transaction (issue 18: BEGIN, the locking read and COMMIT were three of a
   * note's round trips). The update applies only while the row is still TRANSMITTING under that
   * attempt with the key and tpEmis it was sent with, so it never overwrites a newer attempt or a
   * state another node reached; the history row, billing count and outbox event are written only
   * if it applied. Otherwise (undefined) applyOutcome decides under the row lock as before.
   */
  private async applyOwnTerminalOutcome(known: DocumentRecord, trigger: string, tr: Transition, details: AuthorityDetails): Promise<DocumentRecord | undefined> {
    if (tr.to === null || !isTerminal(tr.to) || known.status !== 'TRANSMITTING' || !this.d.eventCte) return undefined;
    const now = this.d.now();
    const changes: Record<string, Knex.Value | undefined> = {
      status: tr.to, motivo: tr.motivo, updated_at: now, transmitting_until: null, next_check_at: null,
      ...(details.protocol !== undefined ? { protocol: details.protocol } : {}),
      ...(details.authorizedAt ? { authorized_at: details.authorizedAt } : {}),
      ...(details.erros ? { erros: JSON.stringify(details.erros) } : {}),
      ...(details.authorizedXml ? { authorized_xml: details.authorizedXml } : {}),
    };
    const record: DocumentRecord = {
      ...known, status: tr.to, motivo: tr.motivo, updatedAt: now, transmittingUntil: null, nextCheckAt: null,
      protocol: details.protocol !== undefined ? details.protocol : known.protocol, authorizedAt: details.authorizedAt ?? known.authorizedAt,
      erros: details.erros ?? known.erros, hasAuthorizedXml: known.hasAuthorizedXml || !!details.authorizedXml,
    };
    const event = tr.event ? { type: tr.event, partnerId: record.partnerId, data: eventData(record) } : undefined;
    // The statement commits by itself: its event is handed to the relay from memory once it returns.
    const outbox = event ? this.d.eventCte('event', event, 'changed', { handOff: true }) : undefined;
    const also = [...(tr.to === 'AUTHORIZED' ? [this.countEmission(record, 'changed')] : []), ...(outbox ? [outbox] : [])];
    const statement = transitionStatement(this.tables(), known.id, changes, { from: 'TRANSMITTING', to: tr.to, trigger, motivo: tr.motivo ?? null, detail: details.erros ? { erros: details.erros } : null, at: now },
      { guard: { status: 'TRANSMITTING', transmissions: known.transmissions, access_key: known.accessKey, tp_emis: known.tpEmis }, also });
    const { rows } = await runStatement(this.d.knex, statement.sql, statement.bindings, { prepare: true });
    if (rows.length !== 1) return undefined;
    outbox?.written();
    return record;
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
    if (f.number !== undefined) q.where({ number: f.number });
    if (f.series !== undefined) q.where({ series: f.series });
    if (f.from) q.where('created_at', '>=', f.from);
    if (f.to) q.where('created_at', '<', f.to);
    if (f.after) q.whereRaw('(created_at, id) < (?, ?)', [f.after.createdAt, f.after.id]);
    const rows = await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit);
    return rows.map(toRecord);
  }

  async usage(partnerId: string, period: string): Promise<{ model: string; environment: number; keyKind: string; billable: boolean; count: number }[]> {
    const rows = await this.d.knex(this.t('billing_counters')).where({ partner_id: partnerId, period }).orderBy(['model', 'environment', 'key_kind']);
    return rows.map((r: any) => ({ model: r.model, environment: Number(r.environment), keyKind: r.key_kind, billable: r.billable, count: Number(r.count) }));
  }

  /** The billing counter of an authorized note (services/emission/transition-sql.ts billingCte, shared with NFS-e). */
  private countEmission(doc: DocumentRecord, onlyIfRowsIn?: string): Cte {
    return billingCte(this.t('billing_counters'), doc, onlyIfRowsIn);
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
  number?: number;
  series?: number;
  from?: Date;
  to?: Date;
  after?: { createdAt: Date; id: string };
  limit: number;
}
