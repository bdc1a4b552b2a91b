/**
 * The DANFE's items grid (MOC 4.00 Anexo II, "Dados dos produtos / serviços"): its columns, the
 * measured height of each row (the description wraps, nothing else does) and the drawing. A
 * "V. DESC." column appears only when some item carries a discount (vDesc, I17); the description
 * column takes whatever width the sheet leaves.
 */
import type { DanfeItem, DanfeView } from './view-model.js';
import { formatDecimal, formatMoney } from './format.js';
import { title, type Pdf } from './pdf.js';
import { TITLE_H, type Sheet } from './nfe-sheet.js';
import { hasDiscount } from './nfe-fields.js';

export const ITEM_FONT = 5.8;
export const ITEM_LINE = 7;
export const ITEM_HEAD_H = 15;

export interface Column {
  label: string;
  w: number;
  align: 'left' | 'right' | 'center';
  value: (i: DanfeItem) => string;
}

const DESCRIPTION = 'DESCRIÇÃO DO PRODUTO / SERVIÇO';
const describe = (i: DanfeItem): string => (i.infAdProd ? `${i.descricao}\n${i.infAdProd}` : i.descricao);

/** The columns for this note on this sheet; widths sum to the sheet's printable width. */
export function itemColumns(v: DanfeView, s: Sheet): Column[] {
  const cols: Column[] = [
    { label: 'CÓDIGO', w: 44, align: 'left', value: (i) => i.codigo },
    { label: DESCRIPTION, w: 0, align: 'left', value: describe },
    { label: 'NCM/SH', w: 32, align: 'center', value: (i) => i.ncm },
    { label: 'O/CST', w: 20, align: 'center', value: (i) => i.cst },
    { label: 'CFOP', w: 20, align: 'center', value: (i) => i.cfop },
    { label: 'UN', w: 18, align: 'center', value: (i) => i.unidade },
    { label: 'QUANT.', w: 36, align: 'right', value: (i) => formatDecimal(i.quantidade, 4) },
    { label: 'VALOR UNIT.', w: 38, align: 'right', value: (i) => formatDecimal(i.valorUnitario, 2) },
    { label: 'VALOR TOTAL', w: 40, align: 'right', value: (i) => formatMoney(i.valorTotal) },
    ...(hasDiscount(v) ? [{ label: 'V. DESC.', w: 34, align: 'right' as const, value: (i: DanfeItem) => formatMoney(i.valorDesconto) }] : []),
    { label: 'B. CÁLC. ICMS', w: 40, align: 'right', value: (i) => formatMoney(i.bcIcms) },
    { label: 'VALOR ICMS', w: 36, align: 'right', value: (i) => formatMoney(i.valorIcms) },
    { label: 'VALOR IPI', w: 33, align: 'right', value: (i) => formatMoney(i.valorIpi) },
    { label: 'ALÍQ. ICMS', w: 26, align: 'right', value: (i) => formatDecimal(i.aliquotaIcms, 2) },
    { label: 'ALÍQ. IPI', w: 26, align: 'right', value: (i) => formatDecimal(i.aliquotaIpi, 2) },
  ];
  const fixed = cols.reduce((a, c) => a + c.w, 0);
  cols[1]!.w = s.w - fixed;
  return cols;
}

export function rowHeight(doc: Pdf, cols: readonly Column[], i: DanfeItem): number {
  doc.font('Helvetica').fontSize(ITEM_FONT);
  const lines = Math.max(1, Math.round(doc.heightOfString(describe(i), { width: cols[1]!.w - 4, lineGap: 0 }) / doc.currentLineHeight(true)));
  return lines * ITEM_LINE + 3;
}

export function itemsHead(doc: Pdf, s: Sheet, cols: readonly Column[], y: number): number {
  title(doc, s.m, y + 2, 'Dados dos produtos / serviços');
  y += TITLE_H;
  let x = s.m;
  doc.font('Helvetica').fontSize(4.8);
  for (const c of cols) {
    doc.lineWidth(0.5).rect(x, y, c.w, ITEM_HEAD_H).stroke();
    doc.text(c.label, x + 1, y + 2, { width: c.w - 2, align: 'center', height: ITEM_HEAD_H - 2 });
    x += c.w;
  }
  return y + ITEM_HEAD_H;
}

export function itemRows(doc: Pdf, s: Sheet, cols: readonly Column[], items: readonly DanfeItem[], heights: readonly number[], y: number, bottom: number): void {
  const top = y;
  doc.font('Helvetica').fontSize(ITEM_FONT).fillColor('#000');
  items.forEach((item, k) => {
    let x = s.m;
    for (const col of cols) {
      const value = col.value(item);
      doc.text(value, x + 2, y + 2, col.label === DESCRIPTION ? { width: col.w - 4, lineGap: 0 } : { width: col.w - 4, align: col.align, lineBreak: false, ellipsis: true, height: ITEM_LINE });
      x += col.w;
    }
    y += heights[k]!;
  });
  // Column rules down to the end of the items area.
  let x = s.m;
  doc.lineWidth(0.5);
  for (const c of cols) { doc.rect(x, top, c.w, bottom - top).stroke(); x += c.w; }
}
