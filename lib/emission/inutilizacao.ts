/**
 * Inutilização: asking the authority to burn a range of numbers of one issuer, model and series
 * (NFeInutilizacao4). API.md says it exists for NF-e and NFC-e with the same sizes, "not shown";
 * the design (README, "Cancellation, correction letter and inutilização"):
 *
 * - justificativa 15-255 characters (xJust, TJust), numeroFinal >= numeroInicial, at most 10 000
 *   numbers per request;
 * - a number the authority may have registered can never be inutilized: one held by a document in
 *   any state except REJECTED (a rejected note never registered its number: burning it is exactly
 *   what the layout asks for). Gaps and numbers ahead of the sequence are the useful cases;
 * - ranges of one space never overlap (PENDING and HOMOLOGATED ones count; a REJECTED one freed
 *   its numbers), and the automatic numbering skips every range that counts, so no number is used
 *   twice. The claim runs under the numbering's row lock (services/emission/store.ts).
 */
import { DomainError } from '../errors/index.js';
import type { Model } from '../nfe/types.js';
import type { DocumentStatus } from './state.js';
import type { AuthoritySendState } from './authority-send.js';

export const MAX_RANGE = 10_000;
export const INUTILIZACAO_STATUSES = ['PENDING', 'HOMOLOGATED', 'REJECTED'] as const;
export type InutilizacaoStatus = (typeof INUTILIZACAO_STATUSES)[number];

/** Statuses whose numbers stay free to inutilize: the authority never registered them. */
export const INUTILIZABLE_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['REJECTED'];

export interface InutilizacaoRecord extends AuthoritySendState {
  id: string;
  partnerId: string;
  issuerId: string;
  model: Model;
  series: number;
  environment: 1 | 2;
  start: number;
  end: number;
  justificativa: string;
  status: InutilizacaoStatus;
  homologatedAt: Date | null;
}

export function checkRange(start: number, end: number): void {
  if (end < start) throw new DomainError('FAIXA_INUTILIZACAO_INVERTIDA', { numeroInicial: start, numeroFinal: end });
  if (end - start + 1 > MAX_RANGE) {
    throw new DomainError('FAIXA_INUTILIZACAO_EXCEDIDA', { numeroInicial: start, numeroFinal: end, quantidade: end - start + 1, maximo: MAX_RANGE }, `Faixa de inutilização com ${end - start + 1} números; o máximo é ${MAX_RANGE} por requisição.`);
  }
}

/** Ranges that hold their numbers: every one not refused by the authority. */
export const holdsNumbers = (r: Pick<InutilizacaoRecord, 'status'>): boolean => r.status !== 'REJECTED';

export type RangeClaim =
  | { kind: 'new' }
  /** The same range was asked before and has no final answer: this request completes it. */
  | { kind: 'resume'; range: InutilizacaoRecord }
  /** The same range is already homologated: answer it again. */
  | { kind: 'done'; range: InutilizacaoRecord };

/**
 * Decides a request for [start, end] given the documents numbered inside it and the ranges of the
 * space that overlap it (both read under the numbering lock).
 */
export function claimRange(start: number, end: number, usedBy: readonly { number: number; status: DocumentStatus }[], overlapping: readonly InutilizacaoRecord[], now: Date): RangeClaim {
  const live = overlapping.filter(holdsNumbers);
  const same = live.find((r) => r.start === start && r.end === end);
  if (same?.status === 'HOMOLOGATED') return { kind: 'done', range: same };
  if (same) {
    if (same.sendingUntil && same.sendingUntil.getTime() > now.getTime()) throw new DomainError('EVENTO_EM_TRANSMISSAO', { inutilizacaoId: same.id }, 'Inutilização desta faixa em transmissão para a autoridade fiscal; aguarde e repita a requisição.');
    return { kind: 'resume', range: same };
  }
  if (live.length) {
    throw new DomainError('FAIXA_JA_INUTILIZADA', { faixas: live.map((r) => ({ id: r.id, numeroInicial: r.start, numeroFinal: r.end, status: r.status })) });
  }
  const used = usedBy.filter((d) => !INUTILIZABLE_DOCUMENT_STATUSES.includes(d.status)).map((d) => d.number).sort((a, b) => a - b);
  if (used.length) throw new DomainError('FAIXA_CONTEM_NUMERO_UTILIZADO', { numeros: used.slice(0, 50), quantidade: used.length });
  return { kind: 'new' };
}

/** The first number at or after `from` outside every range that holds numbers (ranges sorted or not). */
export function skipReserved(from: number, ranges: readonly Pick<InutilizacaoRecord, 'start' | 'end' | 'status'>[]): number {
  let n = from;
  for (let moved = true; moved;) {
    moved = false;
    for (const r of ranges) {
      if (holdsNumbers(r) && r.start <= n && n <= r.end) { n = r.end + 1; moved = true; }
    }
  }
  return n;
}

/** A passthrough `numero` inside a range that holds numbers: 409 before anything is stored. */
export function checkNumberFree(number: number, series: number, ranges: readonly Pick<InutilizacaoRecord, 'id' | 'start' | 'end' | 'status'>[]): void {
  const hit = ranges.find((r) => holdsNumbers(r) && r.start <= number && number <= r.end);
  if (hit) throw new DomainError('NUMERO_INUTILIZADO', { numero: number, serie: series, inutilizacaoId: hit.id, numeroInicial: hit.start, numeroFinal: hit.end });
}

const pathOf = (model: Model) => (model === '55' ? 'nfe' : 'nfce');

export function inutilizacaoView(r: InutilizacaoRecord) {
  return {
    id: r.id,
    issuerId: r.issuerId,
    model: r.model,
    serie: r.series,
    numeroInicial: r.start,
    numeroFinal: r.end,
    justificativa: r.justificativa,
    status: r.status,
    protocolo: r.protocol,
    cStat: r.cStat,
    xMotivo: r.xMotivo,
    homologadaEm: r.homologatedAt?.toISOString() ?? null,
    ambiente: r.environment,
    createdAt: r.createdAt.toISOString(),
    links: { xml: r.hasXml ? `/v1/${pathOf(r.model)}/inutilizacao/${r.id}/xml` : null },
  };
}
