import type { Knex } from 'knex';
import type { DocumentRecord, Erro } from '../../lib/emission/document.js';
import type { ResolvedItemView } from '../../lib/classification/note-groups.js';
import type { Model } from '../../lib/nfe/types.js';
import type { OutboxCte, OutboxRowsCte } from '../mixins/outbox.mixin.js';

/** What the emission service's stores share: their dependencies, a document's row and its numbering space. */
export interface StoreDeps {
  knex: Knex;
  schema: string;
  now(): Date;
  enqueueEvent(trx: Knex.Transaction, event: { type: string; partnerId: string; data: Record<string, unknown> }): Promise<unknown>;
  /** The outbox row as a writable CTE (services/mixins/outbox.mixin.ts); without it, enqueueEvent. */
  eventCte?(name: string, event: { type: string; partnerId: string; data: Record<string, unknown> }): OutboxCte;
  /** Several outbox rows as one writable CTE (services/mixins/outbox.mixin.ts eventsCte); without it, eventCte. */
  eventsCte?(name: string, events: ReadonlyArray<{ key: string; event: { type: string; partnerId: string; data: Record<string, unknown> } }>, keysIn: string): OutboxRowsCte;
}

/** What an authority's answer stores with a document: the protocol and nfeProc, or erros[] verbatim. */
export interface AuthorityDetails {
  protocol?: string;
  authorizedAt?: Date;
  authorizedXml?: string;
  erros?: Erro[];
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
export const COLUMNS = `id, partner_id, issuer_id, model, series, number, environment, uf, key_kind, access_key, cnf, tp_emis,
  emitted_at, status, amount_cents, protocol, authorized_at, erros, motivo, created_at, updated_at, next_check_at,
  check_attempts, transmissions, transmitting_until, qr_code, (transmitted_xml is not null) as has_transmitted_xml, (authorized_xml is not null) as has_authorized_xml,
  contingency_reason, contingency_justification, contingency_deadline, tributacao_resolvida`;

export const PG_UNIQUE_VIOLATION = '23505';
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
