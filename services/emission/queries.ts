import { statusInWords } from '../../lib/emission/status-words.js';
import { DomainError } from '../../lib/errors/index.js';
import { DOCUMENT_STATUSES, type DocumentStatus } from '../../lib/emission/state.js';
import { decodeCursor } from '../../lib/pagination/cursor.js';
import { DEFAULT_PAGE_SIZE, pageOf, pageParams } from '../../lib/pagination/page.js';
import { detailView, indeterminateView, type DocumentRecord } from '../../lib/emission/document.js';
import type { Model } from '../../lib/nfe/types.js';
import type { DocumentStore } from './store.js';
import { danfeSource } from '../../lib/danfe/source.js';
import { buildDanfeView, type DanfeCartaCorrecao } from '../../lib/danfe/view-model.js';
import { renderNfeHtml } from '../../lib/danfe/nfe-html.js';
import { renderNfceHtml } from '../../lib/danfe/nfce-html.js';
import { checkReadable, listedEnvironment, type Reader } from './reader.js';
import { isIdShaped } from '../../lib/validation/uuid.js';
import type { PdfRenderer } from './print-pool.js';

/** Query of GET /v1/nfe and /v1/nfce (API.md, Endpoints > Documents; pagination is this service's design). */
export const listParams = {
  $$strict: true,
  status: { type: 'enum', values: [...DOCUMENT_STATUSES], optional: true, description: 'Status bruto; não combina com situacao.' },
  situacao: { type: 'enum', values: ['indeterminada'], optional: true, description: 'indeterminada: chave emitida e sem resultado final (em reconciliação).' },
  issuerId: { type: 'uuid', optional: true },
  number: { type: 'number', integer: true, min: 1, max: 999999999, convert: true, optional: true },
  serie: { type: 'number', integer: true, min: 0, max: 999, convert: true, optional: true },
  createdFrom: { type: 'date', convert: true, optional: true, description: 'createdAt >= (ISO 8601)' },
  createdTo: { type: 'date', convert: true, optional: true, description: 'createdAt < (ISO 8601)' },
  ...pageParams,
} as const;

export const listDescription = 'Mais recentes primeiro. Paginação por cursor: `nextCursor` da resposta vai em `cursor` da próxima chamada; null na última página. '
  + '`status` e `situacao` não combinam (400). Itens de `situacao=indeterminada` trazem situacao, accessKey, status bruto, updatedAt, proximaVerificacaoEm e motivo. '
  + 'Uma chave ek_test_ lista só documentos emitidos em homologação, ou os de um emissor sandbox nomeado em issuerId; nomear um emissor em produção não sandbox responde 403 '
  + 'CHAVE_TESTE_EMISSOR_PRODUCAO, como a leitura de um documento que ele emitiu em produção (consulta, XML, DANFE, eventos).';

export interface ListQuery {
  status?: DocumentStatus;
  situacao?: 'indeterminada';
  issuerId?: string;
  number?: number;
  serie?: number;
  createdFrom?: Date;
  createdTo?: Date;
  limit?: number;
  cursor?: string;
}

export async function listDocuments(store: DocumentStore, reader: Reader, model: Model, q: ListQuery) {
  if (q.status && q.situacao) {
    throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'situacao', message: "Os filtros 'status' e 'situacao' não podem ser combinados." }] });
  }
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const environment = await listedEnvironment(reader, q.issuerId);
  const rows = await store.list({
    partnerId: reader.partnerId, model, limit: limit + 1,
    ...(environment ? { environment } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.situacao ? { indeterminate: true } : {}),
    ...(q.issuerId ? { issuerId: q.issuerId } : {}),
    ...(q.number !== undefined ? { number: q.number } : {}),
    ...(q.serie !== undefined ? { series: q.serie } : {}),
    ...(q.createdFrom ? { from: q.createdFrom } : {}),
    ...(q.createdTo ? { to: q.createdTo } : {}),
    ...(q.cursor ? { after: decodeCursor(q.cursor) } : {}),
  });
  return pageOf(rows, limit, (d) => d, (d) => (q.situacao ? indeterminateView(d) : detailView(d)));
}

/** The caller's document of this model, or 404 (another partner's id is indistinguishable from none). */
export async function ownDocument(store: DocumentStore, reader: Reader, model: Model, id: unknown): Promise<DocumentRecord> {
  const doc = isIdShaped(id) ? await store.get(id) : undefined;
  if (!doc || doc.partnerId !== reader.partnerId || doc.model !== model) throw new DomainError('NOT_FOUND', undefined, 'Documento não encontrado.');
  await checkReadable(reader, doc);
  return doc;
}

/** The XML a caller may download: nfeProc once authorized; the transmitted signed XML of a refused note. */
export async function downloadXml(store: DocumentStore, doc: DocumentRecord): Promise<{ xml: string; filename: string }> {
  const xml = await store.xmlOf(doc.id);
  // A canceled note keeps its nfeProc: it circulated, and its cancellation is a separate event (…/eventos).
  if ((doc.status === 'AUTHORIZED' || doc.status === 'CANCELADA') && xml?.authorized) return { xml: xml.authorized, filename: `${doc.accessKey}-procNFe.xml` };
  if ((doc.status === 'REJECTED' || doc.status === 'DENEGADA') && xml?.transmitted) return { xml: xml.transmitted, filename: `${doc.accessKey}-transmitido.xml` };
  throw new DomainError('CONFLICT', { status: doc.status }, `XML indisponível para documento ${statusInWords(doc.status)}: há XML autorizado (nfeProc) após a autorização e XML transmitido após uma rejeição.`);
}

export type PrintFormat = 'pdf' | 'html';

/** The issuer's logo as v1.issuer.logoForPrint gives it (base64: it crosses the transporter as JSON). */
export interface DanfeLogo {
  base64: string;
  mime: string;
}

/** What an NF-e DANFE may carry beyond its XML: the issuer's logo and, on request, the last CC-e. */
export interface PrintExtras {
  logo?: DanfeLogo | null;
  cartaCorrecao?: DanfeCartaCorrecao;
}

/**
 * The printable document of a note (DANFE of an NF-e, DANFCE of an NFC-e) from its stored XML;
 * 409 DOCUMENTO_SEM_DANFE when the status has none (lib/danfe/source.ts).
 */
export async function printableDocument(store: DocumentStore, doc: DocumentRecord, format: PrintFormat, renderPdf: PdfRenderer, extras: PrintExtras = {}): Promise<{ body: Buffer | string; contentType: string; disposition: string }> {
  const source = danfeSource(doc, await store.xmlOf(doc.id));
  const logo = extras.logo ?? null;
  const view = buildDanfeView(source.xml, { cancelada: source.cancelada, ...(extras.cartaCorrecao ? { cartaCorrecao: extras.cartaCorrecao } : {}) });
  const name = `${doc.accessKey}-${doc.model === '55' ? 'danfe' : 'danfce'}`;
  if (format === 'html') {
    return { body: doc.model === '55' ? renderNfeHtml(view, logo) : renderNfceHtml(view), contentType: 'text/html; charset=utf-8', disposition: `inline; filename="${name}.html"` };
  }
  const pdf = doc.model === '55' ? await renderPdf({ kind: 'nfe', view, ...(logo ? { logo: Buffer.from(logo.base64, 'base64') } : {}) }) : await renderPdf({ kind: 'nfce', view });
  return { body: pdf, contentType: 'application/pdf', disposition: `attachment; filename="${name}.pdf"` };
}
