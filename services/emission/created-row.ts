import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { BuiltDocument } from '../../lib/emission/pipeline.js';
import type { DocumentRecord } from '../../lib/emission/document.js';
import { nextCheckAt } from '../../lib/emission/reconciliation.js';
import { transmissionStart } from '../../lib/emission/transmission.js';
import { toRecord, type NewDocument } from './document-row.js';

/** A new document's row and its history rows, as the numbering writes them (one note or a group). */
export interface CreatedRow {
  row: ReturnType<typeof documentRow>;
  /** In transition-sql.ts HISTORY_COLUMNS order. */
  history: Knex.Value[][];
}

function documentRow(now: Date, doc: NewDocument, number: number, built: BuiltDocument) {
  return {
    id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, model: doc.model, series: doc.series, number, environment: doc.environment, uf: doc.uf,
    key_kind: doc.keyKind, access_key: built.accessKey, cnf: doc.cnf, tp_emis: doc.tpEmis, emitted_at: doc.emittedAt,
    status: 'CREATED', amount_cents: doc.amountCents.toString(), protocol: null, authorized_at: null, erros: null, motivo: null,
    request_body: JSON.stringify(doc.requestBody ?? null), tributacao_resolvida: doc.tributacaoResolvida ? JSON.stringify(doc.tributacaoResolvida) : null, transmitted_xml: built.xml, digest_value: built.digestValue, qr_code: built.qrCode ?? null,
    idempotency_key: doc.idempotencyKey, idempotency_fingerprint: doc.idempotencyFingerprint, created_at: now, updated_at: now, next_check_at: nextCheckAt(now, 0, now), check_attempts: 0, transmissions: 0, transmitting_until: null as Date | null,
  };
}

/** The record of what was written: no re-read while the sequence row is locked. */
export function createdRecord(created: CreatedRow): DocumentRecord {
  return toRecord({ ...created.row, has_transmitted_xml: true, has_authorized_xml: false });
}

/**
 * The document CREATED with its history row; with `transmit`, already TRANSMITTING (attempt 1 and
 * its lease, as markTransmitting would start it: lib/emission/transmission.ts) with both history
 * rows, so a new document's first transmission costs no transaction of its own (issue 18).
 */
export function createdRow(now: Date, doc: NewDocument, number: number, built: BuiltDocument, transmit: boolean): CreatedRow {
  const created = documentRow(now, doc, number, built);
  const history: Knex.Value[][] = [[created.id, null, 'CREATED', 'emission', null, JSON.stringify({ accessKey: built.accessKey, number }), now]];
  if (!transmit) return { row: created, history };
  const start = transmissionStart(createdRecord({ row: created, history }), now);
  if (start.kind !== 'start') throw new Error(`a new document cannot start its transmission (${start.kind})`);
  history.push([created.id, 'CREATED', 'TRANSMITTING', 'emission', null, JSON.stringify({ attempt: start.attempt }), now]);
  return { row: { ...created, status: 'TRANSMITTING', transmissions: start.attempt, transmitting_until: start.leaseUntil }, history };
}
