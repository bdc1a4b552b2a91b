/**
 * A stored NF-e/NFC-e as the emission service keeps it, and the public views of it (API.md,
 * Resources > Invoice; Events > Payload). Pure: rows in, JSON out.
 */
import { formatCents } from '../money.js';
import type { Model } from '../nfe/types.js';
import { isOpen, type DocumentStatus } from './state.js';
import { contingencyView, type ContingencyInfo } from './contingency.js';
import type { ResolvedItemView } from '../classification/note-groups.js';

export interface Erro {
  codigo: string;
  descricao: string;
}

export interface DocumentRecord {
  id: string;
  partnerId: string;
  issuerId: string;
  model: Model;
  series: number;
  number: number;
  environment: 1 | 2;
  uf: string;
  keyKind: 'live' | 'test' | 'jwt';
  accessKey: string | null;
  cnf: string | null;
  tpEmis: number;
  emittedAt: Date;
  status: DocumentStatus;
  amountCents: bigint;
  protocol: string | null;
  authorizedAt: Date | null;
  erros: Erro[] | null;
  motivo: string | null;
  createdAt: Date;
  updatedAt: Date;
  nextCheckAt: Date | null;
  checkAttempts: number;
  /** Number of the latest transmission attempt (0: never transmitted); answers carry theirs. */
  transmissions: number;
  /** Lease of the transmission in flight (lib/emission/transmission.ts); null when none holds it. */
  transmittingUntil: Date | null;
  /** NFC-e QR code text, as built. */
  qrCode: string | null;
  hasTransmittedXml: boolean;
  hasAuthorizedXml: boolean;
  /** NFC-e issued in offline contingency (tpEmis 9): why, the printed text, the deadline. */
  contingencia?: ContingencyInfo | null;
  /** What assisted taxation resolved per item when the note asked for it (issue 17); null otherwise. */
  tributacaoResolvida?: ResolvedItemView[] | null;
}

const pathOf = (model: Model): string => (model === '55' ? 'nfe' : 'nfce');

/**
 * `danfe` / `danfeHtml`: the printable document (DANFE of an NF-e, DANFCE of an NFC-e), available
 * when the status has one (lib/danfe/source.ts), like `xml` is when there is an XML to give.
 */
export function documentLinks(doc: Pick<DocumentRecord, 'id' | 'model'>): { self: string; xml: string; eventos: string; danfe: string; danfeHtml: string } {
  const self = `/v1/${pathOf(doc.model)}/${doc.id}`;
  const printable = doc.model === '55' ? 'danfe' : 'danfce';
  return { self, xml: `${self}/xml`, eventos: `${self}/eventos`, danfe: `${self}/${printable}.pdf`, danfeHtml: `${self}/${printable}.html` };
}

/** The 201 of POST /v1/nfe and /v1/nfce. */
export function emissionView(doc: DocumentRecord) {
  return {
    id: doc.id,
    status: doc.status,
    model: doc.model,
    accessKey: doc.accessKey,
    number: doc.number,
    series: doc.series,
    amount: formatCents(doc.amountCents),
    protocol: doc.protocol,
    issuerId: doc.issuerId,
    createdAt: doc.createdAt.toISOString(),
    links: documentLinks(doc),
    // API.md rule 10: a contingency note is returned with its QR code and `contingencia` block.
    ...(doc.contingencia ? { qrCode: doc.qrCode, contingencia: contingencyView(doc.contingencia) } : {}),
  };
}

/** GET /v1/nfe/{id}: the emission view plus what a caller needs after a timeout. */
export function detailView(doc: DocumentRecord) {
  return {
    ...emissionView(doc),
    ambiente: doc.environment,
    ...(doc.model === '65' ? { qrCode: doc.qrCode } : {}),
    situacao: isOpen(doc.status) ? 'indeterminada' : null,
    authorizedAt: doc.authorizedAt?.toISOString() ?? null,
    erros: doc.erros ?? null,
    motivo: doc.motivo,
    proximaVerificacaoEm: isOpen(doc.status) ? doc.nextCheckAt?.toISOString() ?? null : null,
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/** Items of `?situacao=indeterminada` (API.md, Endpoints > Documents). */
export function indeterminateView(doc: DocumentRecord) {
  return {
    id: doc.id,
    situacao: 'indeterminada' as const,
    accessKey: doc.accessKey,
    status: doc.status,
    number: doc.number,
    series: doc.series,
    issuerId: doc.issuerId,
    updatedAt: doc.updatedAt.toISOString(),
    proximaVerificacaoEm: doc.nextCheckAt?.toISOString() ?? null,
    motivo: doc.motivo,
    links: documentLinks(doc),
  };
}

/**
 * `data` of invoice.authorized / invoice.rejected (API.md, Events > Payload), plus what a partner
 * needs to act without calling back (issue 21, item 7): the issuer and its CNPJ, the protocol, the
 * authority's first cStat/xMotivo on a rejection, and the API paths of the XML and the DANFE.
 */
export function eventData(doc: DocumentRecord) {
  const rejected = doc.status === 'REJECTED';
  const first = rejected ? doc.erros?.[0] : undefined;
  return {
    invoiceId: doc.id,
    model: doc.model,
    number: doc.number,
    series: doc.series,
    accessKey: rejected ? null : doc.accessKey,
    status: doc.status,
    amount: formatCents(doc.amountCents),
    ...(doc.erros && doc.status !== 'AUTHORIZED' ? { erros: doc.erros } : {}),
    ...(doc.tpEmis !== 1 ? { emitidaEmContingencia: true } : {}),
    ...eventContext(doc),
    protocol: doc.protocol,
    ...(first ? { cStat: Number(first.codigo), xMotivo: first.descricao } : {}),
  };
}

/** The issuer fields and links every invoice event carries (authorized, rejected, canceled, contingency). */
export function eventContext(doc: DocumentRecord) {
  return { issuerId: doc.issuerId, cnpj: issuerCnpjOfKey(doc.accessKey), links: documentLinks(doc) };
}

/** The emitter's CNPJ is positions 7-20 of the access key (MOC 4.00, 5.4: cUF AAMM CNPJ mod …). */
function issuerCnpjOfKey(accessKey: string | null): string | null {
  return accessKey ? accessKey.slice(6, 20) : null;
}
