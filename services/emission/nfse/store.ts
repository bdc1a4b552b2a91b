import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Erro } from '../../../lib/emission/document.js';
import { nextCheckAt } from '../../../lib/emission/reconciliation.js';
import { isStaleAnswer, transmissionStart, type TransmissionStart } from '../../../lib/emission/transmission.js';
import { nfseEventData, type NfseRecord } from '../../../lib/emission/nfse/document.js';
import { NFSE_OPEN, isNfseTerminal, type NfseStatus, type NfseTransition } from '../../../lib/emission/nfse/state.js';
import type { AdesaoMunicipio, NfseAviso } from '../../../lib/nfse/types.js';
import { DomainError } from '../../../lib/errors/index.js';
import { bindingRefused, KeyAlreadyBound, type StoreDeps } from '../store.js';

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
   * Allocates the next nDPS of the space and stores the DPS built with it, in one transaction
   * holding the sequence row lock: concurrent nodes queue on the lock, and a build that throws
   * (XSD, signature) rolls the number back, so nDPS stay consecutive without gaps. The request's
   * Idempotency-Key is bound in the same insert: a key another request bound first is refused
   * (KeyAlreadyBound) and the number goes back with the rollback.
   */
  async createNumbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    try {
      return await this.numbered(doc, build);
    } catch (err) {
      if (bindingRefused(err, IDEMPOTENCY_INDEX)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      throw err;
    }
  }

  private async numbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    const key = { issuer_id: doc.issuerId, serie: doc.serie, environment: doc.environment };
    return this.d.knex.transaction(async (trx) => {
      await trx(this.t('nfse_sequences')).insert({ ...key, next_number: 1 }).onConflict(['issuer_id', 'serie', 'environment']).ignore();
      const seq = await trx(this.t('nfse_sequences')).where(key).forUpdate().first('next_number');
      const nDps = Number(seq.next_number);
      if (nDps > MAX_NDPS) throw new DomainError('UNPROCESSABLE_ENTITY', { serie: doc.serie }, 'Numeração da série da DPS esgotada; use outra série.');
      const built = await build(nDps);
      const now = this.d.now();
      const row = {
        id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, serie: doc.serie, n_dps: nDps, environment: doc.environment,
        key_kind: doc.keyKind, id_dps: built.idDps, codigo_municipio: doc.codigoMunicipio, emitted_at: doc.emittedAt, status: 'CREATED',
        amount_cents: doc.amountCents.toString(), request_body: JSON.stringify(doc.requestBody ?? null), dps_xml: built.xml,
        avisos: JSON.stringify(doc.avisos), alertas: '[]', idempotency_key: doc.idempotencyKey,
        idempotency_fingerprint: doc.idempotencyFingerprint, created_at: now, updated_at: now,
        next_check_at: nextCheckAt(now, 0, now), check_attempts: 0, transmissions: 0,
      };
      await trx(this.t('nfse_documents')).insert(row);
      await trx(this.t('nfse_sequences')).where(key).update({ next_number: nDps + 1 });
      await this.history(trx, row.id, null, 'CREATED', 'emission', null, { idDps: built.idDps, nDps });
      return toNfseRecord((await this.select(trx).where({ id: row.id }).first()));
    });
  }

  /**
   * Starts transmission attempt n+1 and commits before Sefin is called (API.md: TRANSMITTING is
   * stored first). Decided on the locked row (lib/emission/transmission.ts), so of two nodes racing
   * for one DPS exactly one sends it.
   */
  async markTransmitting(id: string, trigger: 'emission' | 'retransmit' | 'retry', expectedAttempt?: number): Promise<NfseClaim> {
    return this.d.knex.transaction(async (trx) => {
      const current = toNfseRecord(await this.select(trx).where({ id }).forUpdate().first());
      const now = this.d.now();
      const decision = transmissionStart(current, now, expectedAttempt);
      if (decision.kind !== 'start') return { kind: decision.kind, doc: current };
      await trx(this.t('nfse_documents')).where({ id }).update({
        status: 'TRANSMITTING', updated_at: now, transmissions: decision.attempt, transmitting_until: decision.leaseUntil,
        next_check_at: nextCheckAt(current.createdAt, 0, now),
      });
      await this.history(trx, id, current.status, 'TRANSMITTING', trigger, null, { attempt: decision.attempt });
      return { kind: 'started', doc: toNfseRecord(await this.select(trx).where({ id }).first()) };
    });
  }

  /**
   * Applies Sefin's answer to attempt `attempt`: the first terminal outcome wins (exactly one
   * terminal event), an answer for a superseded attempt only goes to the history, and the event
   * commits with the state.
   */
  async applyOutcome(id: string, attempt: number, trigger: string, tr: NfseTransition, details: SefinDetails = {}): Promise<NfseRecord> {
    return this.d.knex.transaction(async (trx) => {
      const row = await trx(this.t('nfse_documents')).where({ id }).forUpdate().first('status', 'created_at', 'check_attempts', 'transmissions');
      const from = row.status as NfseStatus;
      const now = this.d.now();
      const reread = async () => toNfseRecord(await this.select(trx).where({ id }).first());
      if (isNfseTerminal(from)) return reread();
      const latest = Number(row.transmissions);
      if (isStaleAnswer(attempt, latest)) {
        await this.history(trx, id, from, from, trigger, `Resposta da transmissão ${attempt} descartada: a transmissão ${latest} é a vigente.`, { attempt, outcome: tr.to });
        return reread();
      }
      if (tr.to === null) {
        await trx(this.t('nfse_documents')).where({ id }).update({ motivo: tr.motivo, updated_at: now, transmitting_until: null });
        await this.history(trx, id, from, from, trigger, tr.motivo, null);
        return reread();
      }
      const terminal = isNfseTerminal(tr.to);
      await trx(this.t('nfse_documents')).where({ id }).update({
        status: tr.to, motivo: tr.motivo, updated_at: now, transmitting_until: null,
        next_check_at: terminal ? null : nextCheckAt(new Date(row.created_at), Number(row.check_attempts), now),
        ...(details.chaveAcesso ? { chave_acesso: details.chaveAcesso } : {}),
        ...(details.numeroNfse ? { numero_nfse: details.numeroNfse } : {}),
        ...(details.nfseXml ? { nfse_xml: details.nfseXml } : {}),
        ...(details.authorizedAt ? { authorized_at: details.authorizedAt } : {}),
        ...(details.erros ? { erros: JSON.stringify(details.erros) } : {}),
        ...(details.alertas ? { alertas: JSON.stringify(details.alertas) } : {}),
      });
      await this.history(trx, id, from, tr.to, trigger, tr.motivo, details.erros ? { erros: details.erros } : null);
      const record = await reread();
      if (tr.event) await this.d.enqueueEvent(trx, { type: tr.event, partnerId: record.partnerId, data: nfseEventData(record) });
      if (tr.to === 'AUTHORIZED') await this.countEmission(trx, record);
      return record;
    });
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

  /** API.md: test-key emissions are not billed; they are counted apart (same counters as NF-e). */
  private async countEmission(trx: Knex.Transaction, doc: NfseRecord): Promise<void> {
    await trx.raw(
      `insert into ?? (partner_id, period, model, environment, key_kind, billable, count) values (?, ?, 'NFSe', ?, ?, ?, 1)
       on conflict (partner_id, period, model, environment, key_kind) do update set count = billing_counters.count + 1`,
      [this.t('billing_counters'), doc.partnerId, doc.createdAt.toISOString().slice(0, 7), doc.environment, doc.keyKind, doc.keyKind !== 'test'],
    );
  }

  async history(trx: Knex.Transaction, documentId: string, from: string | null, to: string, trigger: string, motivo: string | null, detail: unknown): Promise<void> {
    await trx(this.t('nfse_history')).insert({ document_id: documentId, from_status: from, to_status: to, trigger, motivo, detail: detail ? JSON.stringify(detail) : null, at: this.d.now() });
  }
}
