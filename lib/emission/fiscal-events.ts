/**
 * Events after authorization: cancellation (tpEvento 110111, NF-e and NFC-e) and correction letter
 * (CC-e, 110110, NF-e only). Pure decisions: who may receive an event, which sequence it takes,
 * what to do with an event left without an answer, and what an authority answer means. API.md
 * names `invoice.canceled` and says the paths and bodies are "not shown"; this is the design
 * (README, "Cancellation, correction letter and inutilização").
 */
import { DomainError } from '../errors/index.js';
import { formatCents } from '../money.js';
import type { ConsultResult, EventResult } from '../sefaz/results.js';
import { eventContext, type DocumentRecord } from './document.js';
import type { DocumentStatus } from './state.js';
import { statusInWords } from './status-words.js';
import type { AuthoritySendState } from './authority-send.js';

export const FISCAL_EVENT_TYPES = ['cancelamento', 'carta-correcao'] as const;
export type FiscalEventType = (typeof FISCAL_EVENT_TYPES)[number];

/** PENDING: claimed, sent or about to be, no final answer; REGISTERED: 135/136/155; REJECTED: any other cStat. */
export const FISCAL_EVENT_STATUSES = ['PENDING', 'REGISTERED', 'REJECTED'] as const;
export type FiscalEventStatus = (typeof FISCAL_EVENT_STATUSES)[number];

export const TP_EVENTO: Readonly<Record<FiscalEventType, '110111' | '110110'>> = { cancelamento: '110111', 'carta-correcao': '110110' };

/** nSeqEvento of the CC-e: 1 to 20 per note (NT 2011.003; envCCe_v1.00.xsd). */
export const MAX_CCE_SEQUENCE = 20;
/** How long one send holds an event (the authority client's read timeout is 30 s). */
export const EVENT_LEASE_MS = 2 * 60_000;

export interface FiscalEventRecord extends AuthoritySendState {
  id: string;
  documentId: string;
  partnerId: string;
  type: FiscalEventType;
  sequence: number;
  status: FiscalEventStatus;
  /** justificativa (cancellation) or correcao (CC-e), as sent. */
  text: string;
  registeredAt: Date | null;
}

/** Cancellation: only an authorized note (the authority registered it and it circulates). */
export function checkCancelable(status: DocumentStatus): void {
  if (status !== 'AUTHORIZED') throw new DomainError('DOCUMENTO_NAO_CANCELAVEL', { status }, `Documento ${statusInWords(status)} não pode ser cancelado: só um documento autorizado.`);
}

/** CC-e: an authorized NF-e (a canceled one no longer circulates; the authority answers 580 otherwise). */
export function checkCorrectable(status: DocumentStatus): void {
  if (status !== 'AUTHORIZED') throw new DomainError('CARTA_CORRECAO_NAO_PERMITIDA', { status }, `Documento ${statusInWords(status)} não aceita carta de correção: só uma NF-e autorizada.`);
}

/** The next nSeqEvento of a CC-e: after the highest not rejected (a rejected one was never registered). */
export function nextCceSequence(events: readonly Pick<FiscalEventRecord, 'type' | 'status' | 'sequence'>[]): number {
  const used = events.filter((e) => e.type === 'carta-correcao' && e.status !== 'REJECTED').map((e) => e.sequence);
  const next = Math.max(0, ...used) + 1;
  if (next > MAX_CCE_SEQUENCE) throw new DomainError('LIMITE_CARTAS_CORRECAO', { limite: MAX_CCE_SEQUENCE, registradas: used.length });
  return next;
}

export type EventClaim =
  | { kind: 'new'; sequence: number }
  /** An earlier request of the same event got no answer: this one completes it (same sequence, same text). */
  | { kind: 'resume'; event: FiscalEventRecord };

/**
 * What a request for an event does, given the document's events. One event of a document is in
 * flight at a time: a live lease answers 409 EVENTO_EM_TRANSMISSAO. An event left without an answer
 * blocks others until it is completed by repeating its request (a cancellation is completed by any
 * cancellation request, keeping the first justificativa; a CC-e by the same text), so sequences
 * never skip or repeat: 409 EVENTO_PENDENTE otherwise.
 */
export function claimEvent(type: FiscalEventType, text: string, events: readonly FiscalEventRecord[], now: Date): EventClaim {
  const pending = events.find((e) => e.status === 'PENDING');
  if (pending) {
    const ref = { eventoId: pending.id, tipo: pending.type, sequencia: pending.sequence };
    if (pending.sendingUntil && pending.sendingUntil.getTime() > now.getTime()) throw new DomainError('EVENTO_EM_TRANSMISSAO', ref);
    if (pending.type === type && (type === 'cancelamento' || pending.text === text)) return { kind: 'resume', event: pending };
    throw new DomainError('EVENTO_PENDENTE', { ...ref, ...(pending.type === 'carta-correcao' ? { correcao: pending.text } : { justificativa: pending.text }) });
  }
  return { kind: 'new', sequence: type === 'cancelamento' ? 1 : nextCceSequence(events) };
}

export type EventSettlement =
  | { kind: 'registered'; protocol: string; registeredAt: Date; xml: string; cStat: number; xMotivo: string }
  | { kind: 'rejected'; cStat: number; xMotivo: string }
  | { kind: 'unanswered'; outcome: 'failed' | 'unknown'; detail: string };

/** An authority answer to the event (lib/sefaz/results.ts EventResult) as what to store. */
export function settleEvent(result: EventResult): EventSettlement {
  switch (result.kind) {
    case 'registered':
      return { kind: 'registered', protocol: result.protocol, registeredAt: new Date(result.receivedAt), xml: result.procEventoXml, cStat: result.cStat, xMotivo: result.xMotivo };
    case 'rejected':
      return { kind: 'rejected', cStat: result.cStat, xMotivo: result.xMotivo };
    default:
      return { kind: 'unanswered', outcome: result.kind, detail: `${result.reason}: ${result.detail}` };
  }
}

/**
 * Before sending again an event whose previous send may have reached the authority: the consult by
 * key lists the registered events (procEventoNFe); finding ours settles it without a second send.
 */
export function registeredInConsult(result: ConsultResult, type: FiscalEventType, sequence: number): EventSettlement | null {
  if (result.kind !== 'authorized' && result.kind !== 'canceled') return null;
  const found = (result.events ?? []).find((e) => e.tpEvento === TP_EVENTO[type] && e.sequence === sequence);
  if (!found) return null;
  return { kind: 'registered', protocol: found.protocol, registeredAt: new Date(found.registeredAt), xml: found.procEventoXml, cStat: found.cStat, xMotivo: found.xMotivo };
}

/**
 * Whether an earlier send of this event may have reached the authority: its answer was lost
 * (`unknown`), or a node stopped between claiming and settling it (a resumed claim without an
 * outcome). Only a send that certainly went nowhere (`failed`) is sent again without a consult.
 */
export function mayHaveBeenSent(e: Pick<FiscalEventRecord, 'attempts' | 'lastOutcome'>): boolean {
  return e.attempts > 1 && e.lastOutcome !== 'failed';
}

/** The refusal for an authority rejection (422 with the verbatim cStat and xMotivo). */
export function rejectionError(e: Pick<FiscalEventRecord, 'id' | 'type' | 'sequence'>, cStat: number, xMotivo: string): DomainError {
  return new DomainError('EVENTO_REJEITADO', { cStat, xMotivo, eventoId: e.id, tipo: e.type, sequencia: e.sequence }, `Evento rejeitado pela autoridade fiscal: ${cStat} - ${xMotivo}`);
}

/** 503 while the authority did not answer: repeating the request completes the same event. */
export function unansweredError(e: Pick<FiscalEventRecord, 'id' | 'type' | 'sequence'>, outcome: 'failed' | 'unknown'): DomainError {
  return new DomainError('AUTORIDADE_INDISPONIVEL', { eventoId: e.id, tipo: e.type, sequencia: e.sequence, situacao: outcome === 'failed' ? 'nao_enviado' : 'indeterminada' });
}

const pathOf = (model: string) => (model === '55' ? 'nfe' : 'nfce');

/** An event as GET /v1/{nfe|nfce}/{id}/eventos lists it, and as the POSTs answer it. */
export function eventView(e: FiscalEventRecord, doc: Pick<DocumentRecord, 'id' | 'model'>) {
  return {
    id: e.id,
    tipo: e.type,
    sequencia: e.sequence,
    status: e.status,
    ...(e.type === 'cancelamento' ? { justificativa: e.text } : { correcao: e.text }),
    protocolo: e.protocol,
    cStat: e.cStat,
    xMotivo: e.xMotivo,
    registradoEm: e.registeredAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    links: { xml: e.hasXml ? `/v1/${pathOf(doc.model)}/${doc.id}/eventos/${e.id}/xml` : null },
  };
}

/** The 200 of a cancellation: the event and the document as it is now. */
export function cancellationView(e: FiscalEventRecord, doc: DocumentRecord) {
  return { ...eventView(e, doc), documento: { id: doc.id, status: doc.status, accessKey: doc.accessKey, model: doc.model, number: doc.number, series: doc.series } };
}

/** `data` of invoice.canceled (API.md Events > Payload: invoiceId, model, number, series, accessKey, status, amount). */
export function canceledEventData(doc: DocumentRecord, e: FiscalEventRecord) {
  return {
    invoiceId: doc.id,
    model: doc.model,
    number: doc.number,
    series: doc.series,
    accessKey: doc.accessKey,
    status: 'CANCELADA',
    amount: formatCents(doc.amountCents),
    protocolo: e.protocol,
    justificativa: e.text,
    canceladaEm: e.registeredAt?.toISOString() ?? null,
    ...eventContext(doc),
  };
}
