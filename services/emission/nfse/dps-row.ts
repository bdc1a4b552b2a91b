import { randomUUID } from 'node:crypto';
import type { Erro } from '../../../lib/emission/document.js';
import type { NfseRecord } from '../../../lib/emission/nfse/document.js';
import type { NfseStatus } from '../../../lib/emission/nfse/state.js';
import { nextCheckAt } from '../../../lib/emission/reconciliation.js';
import { transmissionStart } from '../../../lib/emission/transmission.js';
import type { NfseAviso } from '../../../lib/nfse/types.js';
import type { HistoryEntry } from '../transition-sql.js';

/** A DPS's row as the NFS-e tables hold it (migrations/emission/nfse.ts), and a new one's. */
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

/** A new DPS's row and its history, as the numbering writes them (one DPS or a série's group). */
export interface CreatedDps {
  row: ReturnType<typeof dpsRow>;
  entries: HistoryEntry[];
}

function dpsRow(now: Date, doc: NewNfse, nDps: number, built: BuiltDps, start: { attempt: number; leaseUntil: Date }) {
  return {
    id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, serie: doc.serie, n_dps: nDps, environment: doc.environment,
    key_kind: doc.keyKind, id_dps: built.idDps, codigo_municipio: doc.codigoMunicipio, emitted_at: doc.emittedAt, status: 'TRANSMITTING',
    amount_cents: doc.amountCents.toString(), chave_acesso: null, numero_nfse: null, authorized_at: null, canceled_at: null,
    request_body: JSON.stringify(doc.requestBody ?? null), dps_xml: built.xml, erros: null, avisos: JSON.stringify(doc.avisos), alertas: '[]', motivo: null,
    idempotency_key: doc.idempotencyKey, idempotency_fingerprint: doc.idempotencyFingerprint, created_at: now, updated_at: now,
    next_check_at: nextCheckAt(now, 0, now), check_attempts: 0, transmissions: start.attempt, transmitting_until: start.leaseUntil,
  };
}

/**
 * A new DPS already TRANSMITTING, as markTransmitting would start its attempt 1
 * (lib/emission/transmission.ts), with its CREATED and TRANSMITTING history: a new DPS's first
 * transmission costs no transaction of its own (issue 18). Crash-safe as the separate commit was:
 * a DPS left TRANSMITTING is taken over when its lease expires (the 2 minutes a CREATED one also
 * waited), consulted by idDps, and sent when Sefin does not know it.
 */
export function createdDps(now: Date, doc: NewNfse, nDps: number, built: BuiltDps): CreatedDps {
  const start = transmissionStart({ status: 'CREATED', transmittingUntil: null, transmissions: 0 }, now);
  if (start.kind !== 'start') throw new Error(`a new DPS cannot start its transmission (${start.kind})`);
  return {
    row: dpsRow(now, doc, nDps, built, start),
    entries: [
      { from: null, to: 'CREATED', trigger: 'emission', motivo: null, detail: { idDps: built.idDps, nDps }, at: now },
      { from: 'CREATED', to: 'TRANSMITTING', trigger: 'emission', motivo: null, detail: { attempt: start.attempt }, at: now },
    ],
  };
}
