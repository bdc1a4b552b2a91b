/**
 * DANFSe as an A4 portrait PDF (pdfkit, built-in Helvetica, metric twin of the layout's Arial):
 * the national DANFSe v1.0 (./rows.ts) framed on each sheet; header with the title, the
 * homologation warning and the issuing municipality; identification beside the QR code of the
 * public consultation; then the blocks of ./rows.ts. Blocks that do not fit continue on the next
 * sheet, and the diagonal marks (cancelled, homologation) are drawn first on every sheet, behind
 * the text, as on the NF-e DANFE.
 */
import { diagonalMark, newPdf, pdfBuffer, type Pdf, type PdfOptions } from '../danfe/pdf.js';
import { qrMatrix, qrRuns } from '../danfe/qrcode.js';
import { danfseMarks, danfseSections, identificacao, QR_CAPTION } from './rows.js';
import { ABSENT_H, drawAbsent, drawRow, drawTitle, rowHeight, TITLE_H } from './pdf-grid.js';
import type { DanfseView } from './view-model.js';

const A4: [number, number] = [595.28, 841.89];
const M = 14;
const W = A4[0] - 2 * M;
const BOTTOM = A4[1] - M;
const HEADER_H = 44;
const QR = 66;
const CONTINUATION_H = 14;

function header(doc: Pdf, v: DanfseView, y: number): number {
  // The national DANFSe carries the NFS-e brand at the left; drawn as type, no image is embedded.
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#000').text('NFS-e', M + 8, y + 6, { lineBreak: false });
  doc.font('Helvetica').fontSize(5.5).text('Nota Fiscal de Serviço eletrônica', M + 8, y + 29, { width: 110, lineBreak: false });
  doc.font('Helvetica-Bold').fontSize(11).text('DANFSe v1.0', M, y + 6, { width: W, align: 'center', lineBreak: false });
  doc.fontSize(8).text('Documento Auxiliar da NFS-e', M, y + 20, { width: W, align: 'center', lineBreak: false });
  if (v.homologacao) doc.fillColor('#c00000').text('NFS-e SEM VALIDADE JURÍDICA', M, y + 31, { width: W, align: 'center', lineBreak: false }).fillColor('#000');
  const xr = M + W - 150;
  doc.font('Helvetica-Bold').fontSize(6).text('Município emissor da NFS-e', xr, y + 10, { width: 144, lineBreak: false });
  doc.font('Helvetica').fontSize(8).text(v.municipioEmissor || '-', xr, y + 19, { width: 144, height: 20, ellipsis: true });
  return y + HEADER_H;
}

/** Identification in three columns, the QR code and its caption in the fourth. */
function identification(doc: Pdf, v: DanfseView, y: number): number {
  doc.lineWidth(0.75).moveTo(M, y).lineTo(M + W, y).stroke();
  const left = (W * 3) / 4;
  let yy = y;
  for (const row of identificacao(v)) yy = drawRow(doc, row, M, yy, left, 3);
  const m = qrMatrix(v.consultaUrl);
  const cell = QR / m.size;
  const qx = M + left + (W / 4 - QR) / 2;
  for (const r of qrRuns(m)) doc.rect(qx + r.x * cell, y + 4 + r.y * cell, r.w * cell, cell).fill('#000');
  doc.font('Helvetica').fontSize(5.5).fillColor('#000').text(QR_CAPTION, M + left + 4, y + QR + 8, { width: W / 4 - 8, align: 'center' });
  const qrBottom = y + QR + 10 + doc.heightOfString(QR_CAPTION, { width: W / 4 - 8 });
  return Math.max(yy, qrBottom) + 2;
}

export async function renderDanfsePdf(v: DanfseView, o: PdfOptions = {}): Promise<Buffer> {
  const doc = newPdf(`DANFSe ${v.numero}`, v.dhProc || v.dhEmi, 'A4', o);
  const marks = danfseMarks(v);
  let sheets = 0;
  const newSheet = (): number => {
    doc.addPage();
    sheets += 1;
    marks.forEach((mk, i) => diagonalMark(doc, mk.text, mk.sub, A4[0] / 2, A4[1] * (marks.length > 1 ? 0.38 + i * 0.3 : 0.5), A4[0] * 1.2, mk.text.length > 12 ? 36 : 72));
    if (sheets === 1) return M;
    // A continuation sheet names its NFS-e, so a loose sheet can still be matched to it.
    doc.font('Helvetica-Bold').fontSize(7).fillColor('#000').text(`DANFSe v1.0 - continuação (folha ${sheets}) - NFS-e nº ${v.numero} - chave de acesso ${v.chaveAcesso}`, M + 3, M + 4, { width: W - 6, lineBreak: false });
    return M + CONTINUATION_H;
  };
  const frame = (bottom: number): void => { doc.lineWidth(1).strokeColor('#000').rect(M, M, W, bottom - M).stroke(); };

  let y = newSheet();
  y = header(doc, v, y);
  y = identification(doc, v, y);
  for (const section of danfseSections(v)) {
    const first = section.absent ? ABSENT_H : TITLE_H + rowHeight(doc, section.rows[0] ?? [], W);
    if (y + first > BOTTOM) {
      frame(y);
      y = newSheet();
    }
    if (section.absent) {
      y = drawAbsent(doc, section.absent, M, y, W);
      continue;
    }
    y = drawTitle(doc, section.title, M, y, W);
    for (const row of section.rows) {
      if (y + rowHeight(doc, row, W) > BOTTOM) {
        frame(y);
        y = drawTitle(doc, `${section.title} (continuação)`, M, newSheet(), W);
      }
      y = drawRow(doc, row, M, y, W);
    }
  }
  frame(y);
  return pdfBuffer(doc);
}
