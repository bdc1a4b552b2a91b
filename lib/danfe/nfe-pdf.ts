/**
 * DANFE of an NF-e as a PDF (MOC 4.00, DANFE layout): A4 portrait, A4 landscape for tpImp 2, and
 * for tpImp 3 the label of nfe-simplificado-pdf.ts. The A4 blocks live in nfe-pdf-head.ts
 * (canhoto, header, recipient, fatura), nfe-pdf-body.ts (taxes, transport, additional data,
 * marks) and nfe-pdf-items.ts (items grid). The item rows are measured, paginated
 * (lib/danfe/paginate.ts) and continue on sheets that repeat the header. Homologation and canceled
 * notes carry a diagonal mark on every sheet, behind the grids.
 */
import type { DanfeView } from './view-model.js';
import { paginate } from './paginate.js';
import { newPdf, pdfBuffer, type Pdf, type PdfOptions } from './pdf.js';
import { ADIC_H, CANHOTO_H, sheetFor, TITLE_H, type Sheet } from './nfe-sheet.js';
import { canhoto, cobranca, cobrancaHeight, destinatario, DESTINATARIO_H, header, HEADER_BLOCK_H } from './nfe-pdf-head.js';
import { adicionais, adicionaisContinuacao, complementaryOverflows, imposto, IMPOSTO_H, marks, transporte, transporteHeight } from './nfe-pdf-body.js';
import { renderNfeSimplificadoPdf } from './nfe-simplificado-pdf.js';
import { ITEM_HEAD_H, itemColumns, itemRows, itemsHead, rowHeight } from './nfe-pdf-items.js';

export interface NfePdfOptions extends PdfOptions {
  /** The issuer's logo (PNG or JPEG, already validated: lib/issuer/logo.ts), printed in the emitter block. */
  logo?: Buffer;
}

export interface NfePdfLayout {
  /** Sheets, the continuation of the complementary text included (it follows the item sheets). */
  pages: number;
  /** Item index ranges per item sheet. */
  slices: { start: number; end: number }[];
}

/** Where the first sheet's items begin: the fixed groups above them (fatura and volumes vary per note). */
function firstPageItemsTop(s: Sheet, v: DanfeView): number {
  return s.m + CANHOTO_H + HEADER_BLOCK_H + DESTINATARIO_H + cobrancaHeight(s, v) + IMPOSTO_H + transporteHeight(s, v) + TITLE_H + ITEM_HEAD_H;
}

/**
 * pdfkit embeds a Buffer image anew at every doc.image call (it caches by file name only); an image
 * opened once is one XObject that every sheet reuses. openImage is public in pdfkit but missing from
 * @types/pdfkit, and doc.image accepts what it returns.
 */
function openOnce(doc: Pdf, bytes: Buffer): Buffer {
  return (doc as unknown as { openImage(src: Buffer): Buffer }).openImage(bytes);
}

/** Below this, the first sheet's items area is too short to be useful (a landscape sheet with fatura and volumes). */
const MIN_FIRST_ITEMS_H = 3 * 10;

/**
 * Item slices per sheet. When the first sheet's fixed groups leave no useful room (landscape, many
 * duplicatas or volumes), it keeps an empty grid and every item continues on the following sheets.
 */
function plan(heights: readonly number[], firstCapacity: number, nextCapacity: number): NfePdfLayout['slices'] {
  if (firstCapacity >= MIN_FIRST_ITEMS_H) return paginate(heights, firstCapacity, nextCapacity);
  if (!heights.length) return [{ start: 0, end: 0 }];
  return [{ start: 0, end: 0 }, ...paginate(heights, nextCapacity, nextCapacity)];
}

/** The DANFE the note asks for (tpImp): the simplified label for 3, the A4 DANFE otherwise. */
export async function renderNfePdf(v: DanfeView, o: NfePdfOptions = {}): Promise<Buffer> {
  if (v.tpImp === 3) return renderNfeSimplificadoPdf(v, o);
  return (await renderNfePdfWithLayout(v, o)).pdf;
}

export async function renderNfePdfWithLayout(v: DanfeView, o: NfePdfOptions = {}): Promise<{ pdf: Buffer; layout: NfePdfLayout }> {
  const s = sheetFor(v.tpImp);
  const doc = newPdf(`DANFE ${v.accessKey}`, v.dhEmi, s.size, o);
  const cols = itemColumns(v, s);
  const logo = o.logo ? openOnce(doc, o.logo) : undefined;
  const heights = v.items.map((i) => rowHeight(doc, cols, i));
  const adicTop = s.pageH - s.m - ADIC_H;
  const itemsTop = firstPageItemsTop(s, v);
  // Sheet.maxDupRows / maxVolumeRows keep the fixed blocks above the additional data; fail loudly if not.
  if (itemsTop - TITLE_H - ITEM_HEAD_H > adicTop - 4) throw new Error(`DANFE layout: the first sheet's blocks end at ${itemsTop - TITLE_H - ITEM_HEAD_H}, past the additional data at ${adicTop - 4}`);
  const nextTop = s.m + HEADER_BLOCK_H + TITLE_H + ITEM_HEAD_H;
  const slices = plan(heights, adicTop - 4 - itemsTop, s.pageH - s.m - nextTop);
  // Complementary text longer than its box continues, whole, on one more sheet at the end.
  const continuation = complementaryOverflows(doc, s, v);
  const pages = slices.length + (continuation ? 1 : 0);
  slices.forEach((slice, p) => {
    doc.addPage({ size: s.size, margin: 0 });
    marks(doc, s, v);
    const rows = v.items.slice(slice.start, slice.end);
    const rowHeights = heights.slice(slice.start, slice.end);
    let y = s.m;
    if (p === 0) {
      y = canhoto(doc, s, v, y);
      y = header(doc, s, v, y, 1, pages, logo);
      y = destinatario(doc, s, v, y);
      y = cobranca(doc, s, v, y);
      y = imposto(doc, s, v, y);
      y = transporte(doc, s, v, y);
      if (y !== itemsTop - TITLE_H - ITEM_HEAD_H) throw new Error(`DANFE layout drift: items start at ${y + TITLE_H + ITEM_HEAD_H}, paginated for ${itemsTop}`);
      // A first sheet without room for items (plan()) shows no items grid: they start on sheet 2.
      if (rows.length || !v.items.length) {
        y = itemsHead(doc, s, cols, y);
        itemRows(doc, s, cols, rows, rowHeights, y, adicTop - 4);
      }
      adicionais(doc, s, v, adicTop - 4, continuation ? pages : null);
    } else {
      y = header(doc, s, v, y, p + 1, pages, logo);
      y = itemsHead(doc, s, cols, y);
      itemRows(doc, s, cols, rows, rowHeights, y, s.pageH - s.m);
    }
  });
  if (continuation) {
    doc.addPage({ size: s.size, margin: 0 });
    marks(doc, s, v);
    adicionaisContinuacao(doc, s, v, header(doc, s, v, s.m, pages, pages, logo));
  }
  return { pdf: await pdfBuffer(doc), layout: { pages, slices } };
}
