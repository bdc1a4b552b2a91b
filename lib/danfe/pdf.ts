/**
 * Shared pieces of the PDF renderers (pdfkit, built-in Helvetica: WinAnsi covers Portuguese).
 * The document's dates come from the note (dhEmi), never from a clock, so the same note always
 * renders the same bytes.
 */
import PDFDocument from 'pdfkit';

export type Pdf = PDFKit.PDFDocument;

export interface PdfOptions {
  /** Flate-compress content streams (default true); tests turn it off to read the text. */
  compress?: boolean;
}

export function newPdf(title: string, dhEmi: string, size: [number, number] | 'A4', o: PdfOptions = {}): Pdf {
  const at = new Date(dhEmi);
  const when = Number.isNaN(at.getTime()) ? new Date(0) : at;
  return new PDFDocument({
    size, margin: 0, autoFirstPage: false, compress: o.compress ?? true,
    info: { Title: title, Creator: 'fiscal-api', Producer: 'fiscal-api', CreationDate: when, ModDate: when },
  });
}

/** Ends the document and collects its bytes. */
export function pdfBuffer(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** A labelled DANFE field: a rectangle, a 5 pt caption and the value on one line (cut with an ellipsis). */
export function box(doc: Pdf, x: number, y: number, w: number, h: number, label: string, value: string, align: 'left' | 'right' | 'center' = 'left', size = 7.5): void {
  doc.lineWidth(0.5).rect(x, y, w, h).stroke();
  doc.font('Helvetica').fontSize(5).fillColor('#000').text(label.toUpperCase(), x + 2, y + 1.5, { width: w - 4, height: 6, lineBreak: false, ellipsis: true });
  if (value) doc.font('Helvetica-Bold').fontSize(size).text(value, x + 2, y + h - size - 3, { width: w - 4, height: size + 2, lineBreak: false, ellipsis: true, align });
}

/**
 * A labelled field whose value must be read whole (the freight modality): the value's size shrinks
 * until it fits the box, down to 4.5 pt, instead of being cut with an ellipsis.
 */
export function boxFit(doc: Pdf, x: number, y: number, w: number, h: number, label: string, value: string, size = 7.5): void {
  let fit = size;
  doc.font('Helvetica-Bold');
  while (fit > 4.5 && doc.fontSize(fit).widthOfString(value) > w - 4) fit -= 0.25;
  box(doc, x, y, w, h, label, '');
  doc.font('Helvetica-Bold').fontSize(fit).fillColor('#000').text(value, x + 2, y + h - fit - 3, { width: w - 4, lineBreak: false });
}

export function title(doc: Pdf, x: number, y: number, text: string): void {
  doc.font('Helvetica-Bold').fontSize(6).fillColor('#000').text(text.toUpperCase(), x, y, { lineBreak: false });
}

/** A translucent diagonal mark across the page (homologation, canceled). */
export function diagonalMark(doc: Pdf, text: string, sub: string | null, cx: number, cy: number, width: number, size: number): void {
  doc.save();
  doc.rotate(-30, { origin: [cx, cy] });
  doc.fillColor('#c00000').fillOpacity(0.3);
  doc.font('Helvetica-Bold').fontSize(size).text(text, cx - width / 2, cy - size / 2, { width, align: 'center', lineBreak: false });
  if (sub) doc.fontSize(size / 3).text(sub, cx - width / 2, cy + size / 2 + 2, { width, align: 'center', lineBreak: false });
  doc.restore();
  doc.fillColor('#000').fillOpacity(1);
}
