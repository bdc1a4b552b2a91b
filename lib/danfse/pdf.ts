import { bars, code128 } from '../danfe/barcode.js';
import { box, diagonalMark, newPdf, pdfBuffer, title, type PdfOptions } from '../danfe/pdf.js';
import { qrMatrix, qrRuns } from '../danfe/qrcode.js';
import { danfseMarks, danfseSections } from './rows.js';
import type { DanfseView } from './view-model.js';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 20;
const ROW_H = 20;

/**
 * DANFSe as an A4 portrait PDF (pdfkit, built-in Helvetica): header with the title, the issuer, the
 * key's Code-128C barcode and the consultation QR code, then the sections of ./rows.ts as labelled
 * boxes; a description that does not fit continues on the next page.
 */
export async function renderDanfsePdf(v: DanfseView, o: PdfOptions = {}): Promise<Buffer> {
  const doc = newPdf(`DANFSe ${v.numero}`, v.dhProc || v.dhEmi, 'A4', o);
  const width = A4[0] - 2 * MARGIN;
  doc.addPage();
  let y = MARGIN;
  doc.lineWidth(0.5).rect(MARGIN, y, width, 90).stroke();
  doc.font('Helvetica-Bold').fontSize(14).text('DANFSe v1.0', MARGIN + 6, y + 8, { lineBreak: false });
  doc.font('Helvetica').fontSize(8).text('Documento Auxiliar da NFS-e', MARGIN + 6, y + 26, { lineBreak: false });
  doc.font('Helvetica-Bold').fontSize(8).text(v.emitente.nome, MARGIN + 6, y + 40, { width: 220, height: 20, ellipsis: true });
  if (/^\d{50}$/.test(v.chaveAcesso)) {
    const code = code128(v.chaveAcesso);
    const scale = 250 / code.modules;
    for (const b of bars(code)) doc.rect(MARGIN + 235 + b.x * scale, y + 10, b.w * scale, 40).fill('#000');
  }
  doc.font('Helvetica').fontSize(6).text('Consulte a autenticidade pela chave de acesso no portal nacional da NFS-e ou pelo código QR.', MARGIN + 235, y + 58, { width: 250 });
  const m = qrMatrix(v.consultaUrl);
  const cell = 80 / m.size;
  for (const r of qrRuns(m)) doc.rect(A4[0] - MARGIN - 85 + r.x * cell, y + 5 + r.y * cell, r.w * cell, cell).fill('#000');
  y += 96;

  for (const section of danfseSections(v)) {
    const needed = 10 + section.rows.length * ROW_H;
    if (y + needed > A4[1] - MARGIN) {
      doc.addPage();
      y = MARGIN;
    }
    title(doc, MARGIN, y, section.title);
    y += 8;
    for (const row of section.rows) {
      const long = row.length === 1 && row[0]!.value.length > 140;
      if (long) {
        // Free text (description, complementary information): wrapped over as many lines as it takes.
        const f = row[0]!;
        doc.font('Helvetica-Bold').fontSize(7.5);
        const h = Math.min(doc.heightOfString(f.value, { width: width - 4 }) + 12, A4[1] - MARGIN - y);
        doc.lineWidth(0.5).rect(MARGIN, y, width, h).stroke();
        doc.font('Helvetica').fontSize(5).text(f.label.toUpperCase(), MARGIN + 2, y + 1.5, { lineBreak: false });
        doc.font('Helvetica-Bold').fontSize(7.5).text(f.value, MARGIN + 2, y + 9, { width: width - 4, height: h - 10, ellipsis: true });
        y += h;
        continue;
      }
      let x = MARGIN;
      for (const f of row) {
        const w = width * f.width;
        box(doc, x, y, w, ROW_H, f.label, f.value);
        x += w;
      }
      y += ROW_H;
    }
    y += 4;
  }
  const marks = danfseMarks(v);
  marks.forEach((mark, i) => diagonalMark(doc, mark, null, A4[0] / 2, A4[1] / 2 + i * 60, 560, mark.length > 20 ? 24 : 48));
  return pdfBuffer(doc);
}
