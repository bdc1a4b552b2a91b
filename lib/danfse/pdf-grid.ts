/**
 * Drawing the DANFSe grid with pdfkit, as the national layout does: no box per field, a bold
 * caption over a plain value, blocks separated by a rule. A value wraps inside its cell and the
 * row grows to the tallest value, so nothing is cut; heights are measured before drawing, so the
 * page breaks can be decided first.
 */
import type { Pdf } from '../danfe/pdf.js';
import type { DanfseField } from './fields.js';

export const LABEL_SIZE = 6;
export const VALUE_SIZE = 7.5;
const PAD = 3;
const VALUE_TOP = 9.5;
const MIN_ROW = 20;
export const TITLE_H = 12;
export const ABSENT_H = 14;

function valueHeight(doc: Pdf, value: string, width: number): number {
  return doc.font('Helvetica').fontSize(VALUE_SIZE).heightOfString(value, { width, lineGap: 0.5 });
}

/** Height of a row whose fields share `width` in `columns` equal columns. */
export function rowHeight(doc: Pdf, row: DanfseField[], width: number, columns = 4): number {
  const col = width / columns;
  return Math.max(MIN_ROW, ...row.map((fd) => (fd.label ? VALUE_TOP : PAD) + valueHeight(doc, fd.value, col * fd.span - 2 * PAD) + PAD));
}

export function drawRow(doc: Pdf, row: DanfseField[], x: number, y: number, width: number, columns = 4): number {
  const col = width / columns;
  const h = rowHeight(doc, row, width, columns);
  let at = x;
  for (const fd of row) {
    const w = col * fd.span - 2 * PAD;
    if (fd.label) doc.font('Helvetica-Bold').fontSize(LABEL_SIZE).fillColor('#000').text(fd.label, at + PAD, y + 2.5, { width: w, height: LABEL_SIZE + 2, lineBreak: false, ellipsis: true });
    doc.font('Helvetica').fontSize(VALUE_SIZE).fillColor('#000').text(fd.value, at + PAD, y + (fd.label ? VALUE_TOP : PAD), { width: w, lineGap: 0.5 });
    at += col * fd.span;
  }
  return y + h;
}

/** A block title across the sheet, with the rule above it that separates it from the previous block. */
export function drawTitle(doc: Pdf, title: string, x: number, y: number, width: number): number {
  doc.lineWidth(0.75).strokeColor('#000').moveTo(x, y).lineTo(x + width, y).stroke();
  doc.font('Helvetica-Bold').fontSize(7.5).fillColor('#000').text(title.toUpperCase(), x + PAD, y + 3, { width: width - 2 * PAD, lineBreak: false });
  return y + TITLE_H;
}

/** The layout's single centred line for a person the NFS-e does not name. */
export function drawAbsent(doc: Pdf, text: string, x: number, y: number, width: number): number {
  doc.lineWidth(0.75).strokeColor('#000').moveTo(x, y).lineTo(x + width, y).stroke();
  doc.font('Helvetica').fontSize(7).fillColor('#000').text(text, x, y + 4, { width, align: 'center', lineBreak: false });
  return y + ABSENT_H;
}
