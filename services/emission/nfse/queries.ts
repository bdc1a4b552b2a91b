import { statusInWords } from '../../../lib/emission/status-words.js';
import { DomainError } from '../../../lib/errors/index.js';
import { decodeCursor } from '../../../lib/pagination/cursor.js';
import { DEFAULT_PAGE_SIZE, pageOf, pageParams } from '../../../lib/pagination/page.js';
import { nfseDetailView, nfseIndeterminateView, type NfseRecord } from '../../../lib/emission/nfse/document.js';
import { NFSE_STATUSES, type NfseStatus } from '../../../lib/emission/nfse/state.js';
import type { NfseStore } from './store.js';
import { buildDanfseView } from '../../../lib/danfse/view-model.js';
import { renderDanfseHtml } from '../../../lib/danfse/html.js';
import { checkReadable, listedEnvironment, type Reader } from '../reader.js';
import { isIdShaped } from '../../../lib/validation/uuid.js';
import type { PdfRenderer } from '../print-pool.js';

/** Query of GET /v1/nfse (same conventions as GET /v1/nfe). */
export const nfseListParams = {
  $$strict: true,
  status: { type: 'enum', values: [...NFSE_STATUSES], optional: true, description: 'Status bruto; não combina com situacao.' },
  situacao: { type: 'enum', values: ['indeterminada'], optional: true, description: 'indeterminada: DPS numerada sem resultado final da Sefin (em reconciliação).' },
  issuerId: { type: 'uuid', optional: true },
  nDPS: { type: 'number', integer: true, min: 1, max: 999999999999999, convert: true, optional: true },
  serie: { type: 'number', integer: true, min: 0, max: 99999, convert: true, optional: true },
  ...pageParams,
} as const;

export interface NfseListQuery {
  status?: NfseStatus;
  situacao?: 'indeterminada';
  issuerId?: string;
  nDPS?: number;
  serie?: number;
  limit?: number;
  cursor?: string;
}

export async function listNfse(store: NfseStore, reader: Reader, q: NfseListQuery) {
  if (q.status && q.situacao) {
    throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'situacao', message: "Os filtros 'status' e 'situacao' não podem ser combinados." }] });
  }
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const environment = await listedEnvironment(reader, q.issuerId);
  const rows = await store.list({
    partnerId: reader.partnerId, limit: limit + 1,
    ...(environment ? { environment } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.situacao ? { indeterminate: true } : {}),
    ...(q.issuerId ? { issuerId: q.issuerId } : {}),
    ...(q.nDPS !== undefined ? { nDps: q.nDPS } : {}),
    ...(q.serie !== undefined ? { serie: q.serie } : {}),
    ...(q.cursor ? { after: decodeCursor(q.cursor) } : {}),
  });
  return pageOf(rows, limit, (d) => d, (d) => (q.situacao ? nfseIndeterminateView(d) : nfseDetailView(d)));
}

/** The caller's NFS-e, or 404 (another partner's id is indistinguishable from none). */
export async function ownNfse(store: NfseStore, reader: Reader, id: unknown): Promise<NfseRecord> {
  const doc = isIdShaped(id) ? await store.get(id) : undefined;
  if (!doc || doc.partnerId !== reader.partnerId) throw new DomainError('NOT_FOUND', undefined, 'NFS-e não encontrada.');
  await checkReadable(reader, doc);
  return doc;
}

/** The NFS-e XML once authorized (also after cancellation); the signed DPS of a rejected one. */
export async function nfseXml(store: NfseStore, doc: NfseRecord): Promise<{ xml: string; filename: string }> {
  const xml = await store.xmlOf(doc.id);
  if ((doc.status === 'AUTHORIZED' || doc.status === 'CANCELADA') && xml?.nfse) return { xml: xml.nfse, filename: `${doc.chaveAcesso}-nfse.xml` };
  if (doc.status === 'REJECTED' && xml) return { xml: xml.dps, filename: `${doc.idDps}-dps.xml` };
  throw new DomainError('CONFLICT', { status: doc.status }, `XML indisponível para NFS-e ${statusInWords(doc.status, 'f')}: há o XML da NFS-e após a autorização e a DPS assinada após uma rejeição.`);
}

/** The DANFSe of an authorized (or canceled, marked CANCELADA) NFS-e, from the NFS-e XML Sefin generated. */
export async function danfse(store: NfseStore, doc: NfseRecord, format: 'pdf' | 'html', renderPdf: PdfRenderer): Promise<{ body: Buffer | string; contentType: string; disposition: string }> {
  const xml = await store.xmlOf(doc.id);
  if ((doc.status !== 'AUTHORIZED' && doc.status !== 'CANCELADA') || !xml?.nfse) throw new DomainError('DOCUMENTO_SEM_DANFE', { status: doc.status });
  const view = buildDanfseView(xml.nfse, { cancelada: doc.status === 'CANCELADA' });
  const name = `${doc.chaveAcesso}-danfse`;
  if (format === 'html') return { body: renderDanfseHtml(view), contentType: 'text/html; charset=utf-8', disposition: `inline; filename="${name}.html"` };
  return { body: await renderPdf({ kind: 'nfse', view }), contentType: 'application/pdf', disposition: `attachment; filename="${name}.pdf"` };
}
