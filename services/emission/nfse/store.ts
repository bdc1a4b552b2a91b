import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Erro } from '../../../lib/emission/document.js';
import { nextCheckAt } from '../../../lib/emission/reconciliation.js';
import { isStaleAnswer, transmissionStart, type TransmissionStart } from '../../../lib/emission/transmission.js';
import { nfseEventData, type NfseRecord } from '../../../lib/emission/nfse/document.js';
import { NFSE_OPEN, isNfseTerminal, type NfseStatus, type NfseTransition } from '../../../lib/emission/nfse/state.js';
import type { AdesaoMunicipio, NfseAviso } from '../../../lib/nfse/types.js';
import { DomainError } from '../../../lib/errors/index.js';
import { bindingRefused, KeyAlreadyBound, type StoreDeps } from '../document-row.js';
import { firstDocumentCte } from '../partner-activity.js';
import { billingCte, insertStatement, transitionStatement, type Cte, type DocumentTables, type HistoryEntry } from '../transition-sql.js';
import { directTransaction, RollBack, statementsOf, supportsDirectTransactions, type DirectTx } from '../../shared/direct-transaction.js';
import { runStatement } from '../../shared/pg-statement.js';

/**
 * Persistence of NFS-e documents: the nDPS numbering, the states, the history and their events
 * (outbox, same transaction), and the municipalities' adherence as Sefin answered it. The same
 * row-lock numbering and transmission-lease design as the NF-e store (services/emission/store.ts),
 * on the NFS-e tables of migrations/emission/nfse.ts.
 */
export interface NfseSpace {
  issuerId: string;
  serie: number;
  environment: 1 | 2;
}

export interface NewNfse extends NfseSpace {
  partnerId: string;
  keyKind: 'live' | 'test' | 'jwt';
  codigoMunicipio: string;
  amountCents: bigint;
  requestBody: unknown;
  idempotencyKey: string | null;
  /** lib/idempotency/fingerprint.ts bodyFingerprint of the request; null without a key. */
  idempotencyFingerprint: string | null;
  emittedAt: Date;
  avisos: NfseAviso[];
}

export interface BuiltDps {
  xml: string;
  idDps: string;
}

export type NfseClaim =
  | { kind: 'started'; doc: NfseRecord }
  | { kind: Exclude<TransmissionStart['kind'], 'start'>; doc: NfseRecord };

export interface SefinDetails {
  chaveAcesso?: string;
  numeroNfse?: string;
  nfseXml?: string;
  authorizedAt?: Date;
  erros?: Erro[];
  alertas?: Erro[];
}

/** migrations/emission 061: one DPS per partner and Idempotency-Key. */
const IDEMPOTENCY_INDEX = 'nfse_documents_idempotency_unique';

/** nDPS is TSNumDPS: up to 15 digits. */
const MAX_NDPS = 999_999_999_999_999;
/** Locks a série's sequence row and advances it; the nDPS it held (as CLAIM_SQL of services/emission/store.ts). */
const CLAIM_SQL = 'update ?? set next_number = next_number + 1 where issuer_id = ? and serie = ? and environment = ? returning next_number - 1 as n_dps';

const COLUMNS = `id, partner_id, issuer_id, serie, n_dps, environment, key_kind, id_dps, codigo_municipio, emitted_at, status, amount_cents,
  chave_acesso, numero_nfse, authorized_at, canceled_at, erros, avisos, alertas, motivo, created_at, updated_at, next_check_at,
  check_attempts, transmissions, transmitting_until`;

const json = <T>(v: unknown, empty: T): T => (v == null ? empty : typeof v === 'string' ? JSON.parse(v) : v) as T;

export function toNfseRecord(r: any): NfseRecord {
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return {
    id: r.id, partnerId: r.partner_id, issuerId: r.issuer_id, serie: Number(r.serie), nDps: Number(r.n_dps), environment: Number(r.environment) as 1 | 2,
    keyKind: r.key_kind, idDps: r.id_dps, codigoMunicipio: r.codigo_municipio, emittedAt: new Date(r.emitted_at), status: r.status as NfseStatus,
    amountCents: BigInt(r.amount_cents), chaveAcesso: r.chave_acesso, numeroNfse: r.numero_nfse, authorizedAt: date(r.authorized_at),
    canceledAt: date(r.canceled_at), erros: json<Erro[] | null>(r.erros, null), avisos: json<NfseAviso[]>(r.avisos, []), alertas: json<Erro[]>(r.alertas, []),
    motivo: r.motivo, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), nextCheckAt: date(r.next_check_at),
    checkAttempts: Number(r.check_attempts), transmissions: Number(r.transmissions), transmittingUntil: date(r.transmitting_until),
  };
}

/**
 * What Sefin's answer `tr` writes on `current`: the columns, and the record they make of it (the
 * store answers from what it wrote, never re-reads). Details absent from the answer keep their value.
 */
function answered(current: NfseRecord, tr: { to: NfseStatus; motivo: string | null }, details: SefinDetails, now: Date, nextCheck: Date | null) {
  const columns: Record<string, Knex.Value | undefined> = {
    status: tr.to, motivo: tr.motivo, updated_at: now, transmitting_until: null, next_check_at: nextCheck,
    chave_acesso: details.chaveAcesso || undefined, numero_nfse: details.numeroNfse || undefined, nfse_xml: details.nfseXml || undefined,
    authorized_at: details.authorizedAt, erros: details.erros && JSON.stringify(details.erros), alertas: details.alertas && JSON.stringify(details.alertas),
  };
  const record: NfseRecord = {
    ...current, status: tr.to, motivo: tr.motivo, updatedAt: now, transmittingUntil: null, nextCheckAt: nextCheck,
    chaveAcesso: details.chaveAcesso || current.chaveAcesso, numeroNfse: details.numeroNfse || current.numeroNfse,
    authorizedAt: details.authorizedAt ?? current.authorizedAt, erros: details.erros ?? current.erros, alertas: details.alertas ?? current.alertas,
  };
  return { columns, record };
}

export interface NfseListFilter {
  partnerId: string;
  status?: NfseStatus;
  indeterminate?: boolean;
  issuerId?: string;
  nDps?: number;
  serie?: number;
  after?: { createdAt: Date; id: string };
  limit: number;
}

export class NfseStore {
  constructor(private readonly d: StoreDeps) {}

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  private get tables(): DocumentTables {
    return { documents: this.t('nfse_documents'), history: this.t('nfse_history') };
  }

  private select(q: Knex | Knex.Transaction) {
    return q(this.t('nfse_documents')).select(q.raw(COLUMNS));
  }

  async get(id: string): Promise<NfseRecord | undefined> {
    const row = await this.select(this.d.knex).where({ id }).first();
    return row ? toNfseRecord(row) : undefined;
  }

  /** The DPS an Idempotency-Key is bound to, with the fingerprint of the request that bound it. */
  async findByIdempotencyKey(partnerId: string, key: string): Promise<{ doc: NfseRecord; fingerprint: string | null } | undefined> {
    const row = await this.select(this.d.knex).select('idempotency_fingerprint').where({ partner_id: partnerId, idempotency_key: key }).first();
    return row ? { doc: toNfseRecord(row), fingerprint: row.idempotency_fingerprint ?? null } : undefined;
  }

  async xmlOf(id: string): Promise<{ dps: string; nfse: string | null } | undefined> {
    const row = await this.d.knex(this.t('nfse_documents')).where({ id }).first('dps_xml', 'nfse_xml');
    return row ? { dps: row.dps_xml, nfse: row.nfse_xml } : undefined;
  }

  /** Rule 9: what Sefin last said about the municipality in this environment; never asked = desconhecido. */
  async adesao(codigoMunicipio: string, environment: 1 | 2): Promise<{ adesao: AdesaoMunicipio; mensagem: string | null }> {
    const row = await this.d.knex(this.t('nfse_municipalities')).where({ codigo_municipio: codigoMunicipio, environment }).first('adesao', 'mensagem');
    return row ? { adesao: row.adesao as AdesaoMunicipio, mensagem: row.mensagem } : { adesao: 'desconhecido', mensagem: null };
  }

  async recordAdesao(codigoMunicipio: string, environment: 1 | 2, adesao: Exclude<AdesaoMunicipio, 'desconhecido'>, mensagem: string | null): Promise<void> {
    await this.d.knex(this.t('nfse_municipalities'))
      .insert({ codigo_municipio: codigoMunicipio, environment, adesao, mensagem, updated_at: this.d.now() })
      .onConflict(['codigo_municipio', 'environment']).merge();
  }

  /**
   * Allocates the next nDPS of the space and stores the DPS built with it, already TRANSMITTING
   * (attempt 1 and its lease), in one transaction holding the sequence row lock: concurrent nodes
   * queue on the lock, and a build that throws rolls the number back, so nDPS stay consecutive
   * without gaps (emit.ts checks the XSD on a draft before the claim; under the lock the draft is
   * only numbered and signed: lib/nfse/document.ts finishDps). The request's Idempotency-Key is bound in the same insert: a key
   * another request bound first is refused (KeyAlreadyBound) and the number goes back with the
   * rollback.
   */
  async createNumbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    try {
      return await this.numbered(doc, build);
    } catch (err) {
      if (bindingRefused(err, IDEMPOTENCY_INDEX)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      throw err;
    }
  }

  /**
   * Issue 18, as the NF-e numbering (services/emission/store.ts numbered): the sequence row is
   * locked from the claim to the commit and every DPS of the série queues on it, so what runs in
   * between is counted in round trips: the claim (lock + advance in one statement, sent with its
   * BEGIN in one message: services/shared/direct-transaction.ts), the build, the insert with both
   * history rows, COMMIT. The série's first DPS (no sequence row yet: the direct transaction rolls
   * back) and PGlite (one session) take a knex transaction, which creates the row when missing.
   */
  private async numbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    const key = { issuer_id: doc.issuerId, serie: doc.serie, environment: doc.environment };
    const claim = [this.t('nfse_sequences'), key.issuer_id, key.serie, key.environment];
    if (supportsDirectTransactions(this.d.knex)) {
      try {
        return await directTransaction(this.d.knex, CLAIM_SQL, claim, async (tx, rows) => {
          if (!rows[0]) throw new RollBack('no sequence row yet');
          return this.insertTransmitting(tx, doc, Number(rows[0].n_dps), build);
        });
      } catch (err) {
        if (!(err instanceof RollBack)) throw err;
      }
    }
    return this.d.knex.transaction(async (trx) => {
      const tx = statementsOf(trx);
      const claimNext = async (): Promise<{ n_dps: string } | undefined> => (await tx.query(CLAIM_SQL, claim, { prepare: true })).rows[0];
      let claimed = await claimNext();
      if (!claimed) {
        // Concurrent first DPS of a série insert one row (nDPS starts at 1); the claim's row lock orders them.
        await trx(this.t('nfse_sequences')).insert({ ...key, next_number: 1 }).onConflict(['issuer_id', 'serie', 'environment']).ignore();
        claimed = await claimNext();
        if (!claimed) throw new Error(`nfse sequence ${JSON.stringify(key)} missing after its insert`);
      }
      return this.insertTransmitting(tx, doc, Number(claimed.n_dps), build);
    });
  }

  /**
   * Builds the DPS with the claimed nDPS and inserts it already TRANSMITTING, as markTransmitting
   * would start its attempt 1 (lib/emission/transmission.ts), with its CREATED and TRANSMITTING
   * history rows and the partner's first-document flag, in one statement: a new DPS's first
   * transmission costs no transaction of its own.
   * Crash-safe as the separate commit was: a DPS left TRANSMITTING is taken over when its lease
   * expires (the 2 minutes a CREATED one also waited), consulted by idDps, and sent when Sefin does
   * not know it.
   */
  private async insertTransmitting(tx: DirectTx, doc: NewNfse, nDps: number, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    if (nDps > MAX_NDPS) throw new DomainError('UNPROCESSABLE_ENTITY', { serie: doc.serie }, 'Numeração da série da DPS esgotada; use outra série.');
    const built = await build(nDps);
    const now = this.d.now();
    const start = transmissionStart({ status: 'CREATED', transmittingUntil: null, transmissions: 0 }, now);
    if (start.kind !== 'start') throw new Error(`a new DPS cannot start its transmission (${start.kind})`);
    const row = {
      id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, serie: doc.serie, n_dps: nDps, environment: doc.environment,
      key_kind: doc.keyKind, id_dps: built.idDps, codigo_municipio: doc.codigoMunicipio, emitted_at: doc.emittedAt, status: 'TRANSMITTING',
      amount_cents: doc.amountCents.toString(), chave_acesso: null, numero_nfse: null, authorized_at: null, canceled_at: null,
      request_body: JSON.stringify(doc.requestBody ?? null), dps_xml: built.xml, erros: null, avisos: JSON.stringify(doc.avisos), alertas: '[]', motivo: null,
      idempotency_key: doc.idempotencyKey, idempotency_fingerprint: doc.idempotencyFingerprint, created_at: now, updated_at: now,
      next_check_at: nextCheckAt(now, 0, now), check_attempts: 0, transmissions: start.attempt, transmitting_until: start.leaseUntil,
    };
    // The partner's first-document flag rides in the same statement (API.md, Resources > Partner:
    // a partner that emitted an NFS-e cannot be deactivated either), as the NF-e insert does.
    const statement = insertStatement(this.tables, row, [
      { from: null, to: 'CREATED', trigger: 'emission', motivo: null, detail: { idDps: built.idDps, nDps }, at: now },
      { from: 'CREATED', to: 'TRANSMITTING', trigger: 'emission', motivo: null, detail: { attempt: start.attempt }, at: now },
    ], [firstDocumentCte('first_document', this.d.schema, row)]);
    await tx.query(statement.sql, statement.bindings, { prepare: true });
    // Built from what was written: no re-read while the sequence row is locked.
    return toNfseRecord(row);
  }

  /**
   * Starts transmission attempt n+1 and commits before Sefin is called (API.md: TRANSMITTING is
   * stored first). Decided on the locked row (lib/emission/transmission.ts), so of two nodes racing
   * for one DPS exactly one sends it. A new DPS does not come here: it is numbered TRANSMITTING.
   */
  async markTransmitting(id: string, trigger: 'retransmit' | 'retry', expectedAttempt?: number): Promise<NfseClaim> {
    return this.d.knex.transaction(async (trx) => {
      const row = await this.select(trx).where({ id }).forUpdate().first();
      if (!row) throw new Error(`DPS ${id} vanished`);
      const current = toNfseRecord(row);
      const now = this.d.now();
      const decision = transmissionStart(current, now, expectedAttempt);
      if (decision.kind !== 'start') return { kind: decision.kind, doc: current };
      const changes = {
        status: 'TRANSMITTING', updated_at: now, transmissions: decision.attempt, transmitting_until: decision.leaseUntil,
        next_check_at: nextCheckAt(current.createdAt, 0, now),
      };
      await this.transition(statementsOf(trx), id, changes, { from: current.status, to: 'TRANSMITTING', trigger, motivo: null, detail: { attempt: decision.attempt }, at: now });
      // The row is locked: what it is now is what was read plus what was written (no re-read).
      return { kind: 'started', doc: toNfseRecord({ ...row, ...changes }) };
    });
  }

  /**
   * Applies Sefin's answer to attempt `attempt`: the first terminal outcome wins (exactly one
   * terminal event), an answer for a superseded attempt only goes to the history, and the event
   * commits with the state. `known`: the DPS as this process wrote it when it started that attempt
   * (applyOwnTerminalOutcome); otherwise, or when that does not apply, decided on the locked row.
   */
  async applyOutcome(id: string, attempt: number, trigger: string, tr: NfseTransition, details: SefinDetails = {}, known?: NfseRecord): Promise<NfseRecord> {
    if (known && known.id === id && known.transmissions === attempt) {
      const applied = await this.applyOwnTerminalOutcome(known, trigger, tr, details);
      if (applied) return applied;
    }
    return this.d.knex.transaction(async (trx) => {
      // The whole record under the lock: every answer below is built from it and what is written.
      const row = await this.select(trx).where({ id }).forUpdate().first();
      if (!row) throw new Error(`DPS ${id} vanished`);
      const current = toNfseRecord(row);
      const from = current.status;
      const now = this.d.now();
      if (isNfseTerminal(from)) return current;
      const latest = current.transmissions;
      if (isStaleAnswer(attempt, latest)) {
        await this.history(trx, id, from, from, trigger, `Resposta da transmissão ${attempt} descartada: a transmissão ${latest} é a vigente.`, { attempt, outcome: tr.to });
        return current;
      }
      if (tr.to === null) {
        const changes = { motivo: tr.motivo, updated_at: now, transmitting_until: null };
        await this.transition(statementsOf(trx), id, changes, { from, to: from, trigger, motivo: tr.motivo, detail: null, at: now });
        return toNfseRecord({ ...row, ...changes });
      }
      const { columns, record } = answered(current, tr, details, now, isNfseTerminal(tr.to) ? null : nextCheckAt(current.createdAt, current.checkAttempts, now));
      const event = tr.event ? { type: tr.event, partnerId: record.partnerId, data: nfseEventData(record) } : undefined;
      const outbox = event && this.d.eventCte ? this.d.eventCte('event', event) : undefined;
      await this.transition(statementsOf(trx), id, columns, { from, to: tr.to, trigger, motivo: tr.motivo, detail: details.erros ? { erros: details.erros } : null, at: now },
        { also: [...this.authorizedCtes(record), ...(outbox ? [outbox] : [])] });
      if (outbox) outbox.written();
      else if (event) await this.d.enqueueEvent(trx, event);
      return record;
    });
  }

  /**
   * The terminal answer to the attempt this process started itself (`known`, as it wrote it), in
   * one statement and no transaction, as the NF-e store does it (issue 18: BEGIN, the locking read
   * and COMMIT were three of a DPS's round trips). The update applies only while the row is still
   * TRANSMITTING under that attempt, so it never overwrites a newer attempt or a state another node
   * reached; the history row, billing count, adherence and outbox event follow it only if it
   * applied, and the event goes to the relay from memory once the statement returned (handOff:
   * services/mixins/outbox.mixin.ts). Otherwise (undefined) applyOutcome decides under the row lock.
   */
  private async applyOwnTerminalOutcome(known: NfseRecord, trigger: string, tr: NfseTransition, details: SefinDetails): Promise<NfseRecord | undefined> {
    if (tr.to === null || !isNfseTerminal(tr.to) || known.status !== 'TRANSMITTING' || !this.d.eventCte) return undefined;
    const now = this.d.now();
    const { columns, record } = answered(known, tr, details, now, null);
    const event = tr.event ? { type: tr.event, partnerId: record.partnerId, data: nfseEventData(record) } : undefined;
    const outbox = event ? this.d.eventCte('event', event, 'changed', { handOff: true }) : undefined;
    // Outside any transaction: the statement commits by itself.
    const autocommit: DirectTx = { query: (sql, bindings, opts) => runStatement(this.d.knex, sql, bindings, opts) };
    const rows = await this.transition(autocommit, known.id, columns, { from: 'TRANSMITTING', to: tr.to, trigger, motivo: tr.motivo, detail: details.erros ? { erros: details.erros } : null, at: now },
      { guard: { status: 'TRANSMITTING', transmissions: known.transmissions }, also: [...this.authorizedCtes(record, 'changed'), ...(outbox ? [outbox] : [])] });
    if (rows.length !== 1) return undefined;
    outbox?.written();
    return record;
  }

  /** Due open DPS for this node's reconciliation (SKIP LOCKED; live leases are left alone). */
  async claimDue(limit: number): Promise<NfseRecord[]> {
    return this.d.knex.transaction(async (trx) => {
      const now = this.d.now();
      const rows = await trx(this.t('nfse_documents')).whereIn('status', [...NFSE_OPEN]).whereNotNull('next_check_at').where('next_check_at', '<=', now)
        .where((q) => q.whereNot('status', 'TRANSMITTING').orWhereNull('transmitting_until').orWhere('transmitting_until', '<=', now))
        .orderBy('next_check_at').limit(limit).forUpdate().skipLocked().select('id', 'created_at', 'check_attempts');
      for (const r of rows) {
        const attempts = Number(r.check_attempts) + 1;
        await trx(this.t('nfse_documents')).where({ id: r.id }).update({ check_attempts: attempts, next_check_at: nextCheckAt(new Date(r.created_at), attempts, now) });
      }
      if (!rows.length) return [];
      return (await this.select(trx).whereIn('id', rows.map((r: any) => r.id))).map(toNfseRecord);
    });
  }

  async list(f: NfseListFilter): Promise<NfseRecord[]> {
    const q = this.select(this.d.knex).where({ partner_id: f.partnerId });
    if (f.status) q.where({ status: f.status });
    if (f.indeterminate) q.whereIn('status', [...NFSE_OPEN]);
    if (f.issuerId) q.where({ issuer_id: f.issuerId });
    if (f.nDps !== undefined) q.where({ n_dps: f.nDps });
    if (f.serie !== undefined) q.where({ serie: f.serie });
    if (f.after) q.whereRaw('(created_at, id) < (?, ?)', [f.after.createdAt, f.after.id]);
    const rows = await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit);
    return rows.map(toNfseRecord);
  }

  /**
   * What an authorization writes besides the DPS: the billing counter (counted as NF-e's, under
   * model NFSe) and, rule 9, the emitter's municipality as adhering to the national standard (the
   * DPS was accepted there), in the authorization's statement.
   */
  private authorizedCtes(doc: NfseRecord, onlyIfRowsIn?: string): Cte[] {
    if (doc.status !== 'AUTHORIZED') return [];
    const billed = billingCte(this.t('billing_counters'), { ...doc, model: 'NFSe' }, onlyIfRowsIn);
    const municipalities = this.t('nfse_municipalities');
    // Written only when the row says otherwise: every DPS of a municipality would otherwise take
    // its row's lock (the upsert's) for what it already says.
    const adhered = {
      sql: `adhered as (insert into ?? as m (codigo_municipio, environment, adesao, mensagem, updated_at) select ?, ?::smallint, 'aderente', null::text, ?::timestamptz
          where not exists (select 1 from ?? where codigo_municipio = ? and environment = ? and adesao = 'aderente' and mensagem is null)${onlyIfRowsIn ? ` and exists (select 1 from ${onlyIfRowsIn})` : ''}
        on conflict (codigo_municipio, environment) do update set adesao = excluded.adesao, mensagem = excluded.mensagem, updated_at = excluded.updated_at)`,
      bindings: [municipalities, doc.codigoMunicipio, doc.environment, this.d.now(), municipalities, doc.codigoMunicipio, doc.environment],
    };
    return [billed, adhered];
  }

  /** A state change, its history row and `opts.also` in one statement (services/emission/transition-sql.ts); the rows it changed. */
  private async transition(q: DirectTx, id: string, changes: Record<string, Knex.Value | undefined>, entry: HistoryEntry, opts: { guard?: Record<string, Knex.Value>; also?: Cte[] } = {}): Promise<unknown[]> {
    const statement = transitionStatement(this.tables, id, changes, entry, opts);
    return (await q.query(statement.sql, statement.bindings, { prepare: true })).rows;
  }

  async history(trx: Knex.Transaction, documentId: string, from: string | null, to: string, trigger: string, motivo: string | null, detail: unknown): Promise<void> {
    await trx(this.t('nfse_history')).insert({ document_id: documentId, from_status: from, to_status: to, trigger, motivo, detail: detail ? JSON.stringify(detail) : null, at: this.d.now() });
  }
}
