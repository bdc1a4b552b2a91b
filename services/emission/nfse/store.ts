import type { Knex } from 'knex';
import type { Erro } from '../../../lib/emission/document.js';
import { nextCheckAt } from '../../../lib/emission/reconciliation.js';
import { isStaleAnswer, transmissionStart, type TransmissionStart } from '../../../lib/emission/transmission.js';
import { nfseEventData, type NfseRecord } from '../../../lib/emission/nfse/document.js';
import { NFSE_OPEN, isNfseTerminal, type NfseStatus, type NfseTransition } from '../../../lib/emission/nfse/state.js';
import type { AdesaoMunicipio } from '../../../lib/nfse/types.js';
import type { StoreDeps } from '../document-row.js';
import { billingCte, transitionStatement, type Cte, type DocumentTables, type GroupedColumn, type HistoryEntry } from '../transition-sql.js';
import { ANSWER_COLUMNS, ANSWER_GUARD, OutcomeGroups, writeAnswers } from '../outcome-group.js';
import { statementsOf, type DirectTx } from '../../shared/direct-transaction.js';
import { toNfseRecord, type BuiltDps, type NewNfse } from './dps-row.js';
import { NfseNumbering, type PendingDps } from './numbering.js';
import { LeasedCache } from '../../shared/leased-cache.js';

/** What Sefin last said of a municipality (rule 9), as this node remembers it. */
interface KnownAdherence { adesao: Exclude<AdesaoMunicipio, 'desconhecido'>; mensagem: string | null }
/** Municipalities one node remembers at most (Brazil has 5,570). */
const ADHERENCE_ENTRIES = 10_000;

export { toNfseRecord, type BuiltDps, type NewNfse, type NfseSpace } from './dps-row.js';

/**
 * Persistence of NFS-e documents: the nDPS numbering (nfse/numbering.ts), the states, the history and their events
 * (outbox, same transaction), and the municipalities' adherence as Sefin answered it. The same
 * row-lock numbering and transmission-lease design as the NF-e store (services/emission/store.ts),
 * on the NFS-e tables of migrations/emission/nfse.ts.
 */
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

const COLUMNS = `id, partner_id, issuer_id, serie, n_dps, environment, key_kind, id_dps, codigo_municipio, emitted_at, status, amount_cents,
  chave_acesso, numero_nfse, authorized_at, canceled_at, erros, avisos, alertas, motivo, created_at, updated_at, next_check_at,
  check_attempts, transmissions, transmitting_until`;

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

/** A terminal answer to the attempt `known` started (as this process wrote it): what it writes and the record it makes. */
interface OwnOutcome {
  known: NfseRecord;
  record: NfseRecord;
  columns: Record<string, Knex.Value | undefined>;
  trigger: string;
  details: SefinDetails;
  event: { type: string; partnerId: string; data: Record<string, unknown> } | undefined;
}

/** The columns `answered` writes beyond ANSWER_COLUMNS (details absent from the answer keep their value). */
const OUTCOME_COLUMNS: { set: GroupedColumn[]; guard: readonly GroupedColumn[] } = {
  set: [
    ...ANSWER_COLUMNS,
    { name: 'chave_acesso', type: 'text', keepWhenNull: true }, { name: 'numero_nfse', type: 'text', keepWhenNull: true },
    { name: 'nfse_xml', type: 'text', keepWhenNull: true }, { name: 'authorized_at', type: 'timestamptz', keepWhenNull: true },
    { name: 'erros', type: 'jsonb', keepWhenNull: true }, { name: 'alertas', type: 'jsonb', keepWhenNull: true },
  ],
  guard: ANSWER_GUARD,
};
const OUTCOME_SET = new Set(OUTCOME_COLUMNS.set.map((c) => c.name));

export interface NfseListFilter {
  partnerId: string;
  status?: NfseStatus;
  indeterminate?: boolean;
  issuerId?: string;
  /** tpAmb: what an ek_test_ key lists (services/emission/reader.ts). */
  environment?: 1 | 2;
  nDps?: number;
  serie?: number;
  after?: { createdAt: Date; id: string };
  limit: number;
}

export class NfseStore {
  /** New DPS and their nDPS (nfse/numbering.ts). */
  private readonly numbering: NfseNumbering;

  /** Terminal answers of this node's own transmissions, written together under load (outcome-group.ts). */
  private readonly outcomes?: OutcomeGroups<OwnOutcome>;

  /**
   * Rule 9's adherence read on every DPS (issue 18: a statement per DPS for a fact that changes
   * only when Sefin says so), kept for a lease (CACHE_LEASE_MS). What this node learns is
   * dropped at once; what another node learns is seen here within the lease. Meanwhile a DPS may
   * go to Sefin for a municipality another node just learned does not adhere, and Sefin refuses it
   * (E0037) as it did that node's: the refusal is Sefin's own, never a DPS accepted wrongly.
   */
  private readonly adherence: LeasedCache<KnownAdherence>;

  constructor(private readonly d: StoreDeps, opts: { adherenceLeaseMs?: number } = {}) {
    this.adherence = new LeasedCache({ leaseMs: opts.adherenceLeaseMs ?? 0, maxEntries: ADHERENCE_ENTRIES });
    this.numbering = new NfseNumbering(d, this.tables);
    if (d.eventsCte) this.outcomes = new OutcomeGroups((o) => o.known.id, (outcomes) => this.writeOutcomes(outcomes));
  }

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
    const known = await this.adherence.get(adherenceKey(codigoMunicipio, environment), async () => {
      const row = await this.d.knex(this.t('nfse_municipalities')).where({ codigo_municipio: codigoMunicipio, environment }).first('adesao', 'mensagem');
      return row ? { adesao: row.adesao, mensagem: row.mensagem } : undefined;
    });
    return known ?? { adesao: 'desconhecido', mensagem: null };
  }

  async recordAdesao(codigoMunicipio: string, environment: 1 | 2, adesao: Exclude<AdesaoMunicipio, 'desconhecido'>, mensagem: string | null): Promise<void> {
    await this.d.knex(this.t('nfse_municipalities'))
      .insert({ codigo_municipio: codigoMunicipio, environment, adesao, mensagem, updated_at: this.d.now() })
      .onConflict(['codigo_municipio', 'environment']).merge();
    this.adherence.invalidate([adherenceKey(codigoMunicipio, environment)]);
  }

  /** A new DPS with the série's next nDPS (nfse/numbering.ts). */
  createNumbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    return this.numbering.createNumbered(doc, build);
  }

  /** New DPS of one série queued together, numbered at once (nfse/numbering.ts). */
  createNumberedGroup(pending: readonly PendingDps[]): Promise<Array<PromiseSettledResult<NfseRecord>>> {
    return this.numbering.createNumberedGroup(pending);
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
        { also: [...this.authorizedCtes([record]), ...(outbox ? [outbox] : [])] });
      if (outbox) outbox.written();
      else if (event) await this.d.enqueueEvent(trx, event);
      return record;
    });
  }

  /**
   * The terminal answer to the attempt this process started itself (`known`, as it wrote it), in
   * one statement and no transaction, with the other DPS answered meanwhile (outcome-group.ts), as
   * the NF-e store does it (issue 18: BEGIN, the locking read and COMMIT were three of a DPS's round
   * trips). The update applies only while the row is still TRANSMITTING under that attempt, so it
   * never overwrites a newer attempt or a state another node reached; the history row, billing
   * count, adherence and outbox event follow it only if it applied, and the event goes to the relay
   * from memory once the statement returned (handOff: services/mixins/outbox.mixin.ts). Otherwise
   * (undefined) applyOutcome decides under the row lock.
   */
  private async applyOwnTerminalOutcome(known: NfseRecord, trigger: string, tr: NfseTransition, details: SefinDetails): Promise<NfseRecord | undefined> {
    if (tr.to === null || !isNfseTerminal(tr.to) || known.status !== 'TRANSMITTING' || !this.outcomes) return undefined;
    const { columns, record } = answered(known, tr, details, this.d.now(), null);
    const event = tr.event ? { type: tr.event, partnerId: record.partnerId, data: nfseEventData(record) } : undefined;
    return (await this.outcomes.write({ known, record, columns, trigger, details, event })) ? record : undefined;
  }

  /** The statement of a group of own terminal answers (outcome-group.ts): the ids it changed. */
  private writeOutcomes(outcomes: readonly OwnOutcome[]): Promise<ReadonlySet<string>> {
    for (const { columns } of outcomes) {
      const missing = Object.keys(columns).find((c) => columns[c] !== undefined && !OUTCOME_SET.has(c));
      if (missing) throw new Error(`NfseStore: the grouped answer does not write column ${missing} (OUTCOME_COLUMNS)`);
    }
    const answers = outcomes.map(({ known, record, columns, trigger, details, event }) => ({
      id: known.id, transmissions: known.transmissions, set: columns, to: record.status, motivo: record.motivo, at: record.updatedAt, trigger, erros: details.erros, event,
    }));
    return writeAnswers(this.d, this.tables, OUTCOME_COLUMNS, answers, this.authorizedCtes(outcomes.map((o) => o.record)));
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
    if (f.environment) q.where({ environment: f.environment });
    if (f.nDps !== undefined) q.where({ n_dps: f.nDps });
    if (f.serie !== undefined) q.where({ serie: f.serie });
    if (f.after) q.whereRaw('(created_at, id) < (?, ?)', [f.after.createdAt, f.after.id]);
    const rows = await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit);
    return rows.map(toNfseRecord);
  }

  /**
   * What the authorization of `docs` writes besides the DPS, for those the earlier CTE `changed`
   * returned: the billing counters (counted as NF-e's, under model NFSe) and, rule 9, the emitters'
   * municipalities as adhering to the national standard (the DPS was accepted there), in the
   * authorization's statement.
   */
  private authorizedCtes(docs: readonly NfseRecord[]): Cte[] {
    const authorized = docs.filter((doc) => doc.status === 'AUTHORIZED');
    if (!authorized.length) return [];
    // This statement may turn a municipality this node remembers otherwise into an adhering one.
    const changing = authorized.map((doc) => adherenceKey(doc.codigoMunicipio, doc.environment)).filter((key) => this.adherence.peek(key)?.adesao !== 'aderente');
    if (changing.length) this.adherence.invalidate(changing);
    const billed = billingCte(this.t('billing_counters'), authorized.map((doc) => ({ ...doc, model: 'NFSe' })), 'changed');
    const municipalities = this.t('nfse_municipalities');
    const values = authorized.map((_, i) => (i === 0 ? '(?::uuid, ?::text, ?::smallint)' : '(?, ?, ?)')).join(', ');
    // Written only when the row says otherwise: every DPS of a municipality would otherwise take
    // its row's lock (the upsert's) for what it already says. In key order, as the counters.
    const adhered = {
      sql: `adhered as (insert into ?? as m (codigo_municipio, environment, adesao, mensagem, updated_at)
          select distinct v.codigo_municipio, v.environment, 'aderente', null::text, ?::timestamptz
          from (values ${values}) as v (document_id, codigo_municipio, environment)
          where v.document_id in (select id from changed)
            and not exists (select 1 from ?? as x where x.codigo_municipio = v.codigo_municipio and x.environment = v.environment and x.adesao = 'aderente' and x.mensagem is null)
          order by v.codigo_municipio, v.environment
        on conflict (codigo_municipio, environment) do update set adesao = excluded.adesao, mensagem = excluded.mensagem, updated_at = excluded.updated_at)`,
      bindings: [municipalities, this.d.now(), ...authorized.flatMap((doc) => [doc.id, doc.codigoMunicipio, doc.environment]), municipalities],
    };
    return [billed, adhered];
  }

  /** A state change, its history row and `opts.also` in one statement (services/emission/transition-sql.ts); the rows it changed. */
  private async transition(q: DirectTx, id: string, changes: Record<string, Knex.Value | undefined>, entry: HistoryEntry, opts: { also?: Cte[] } = {}): Promise<unknown[]> {
    const statement = transitionStatement(this.tables, id, changes, entry, opts);
    return (await q.query(statement.sql, statement.bindings, { prepare: true })).rows;
  }

  async history(trx: Knex.Transaction, documentId: string, from: string | null, to: string, trigger: string, motivo: string | null, detail: unknown): Promise<void> {
    await trx(this.t('nfse_history')).insert({ document_id: documentId, from_status: from, to_status: to, trigger, motivo, detail: detail ? JSON.stringify(detail) : null, at: this.d.now() });
  }
}

const adherenceKey = (codigoMunicipio: string, environment: number) => `${codigoMunicipio}/${environment}`;
