/**
 * DANFE NFC-e as an 80 mm PDF receipt (DANFE NFC-e manual): the receipt blocks
 * (lib/danfe/nfce-blocks.ts) are measured first, then drawn on one sheet exactly as tall as the
 * content (a very long note continues on further sheets of the same width, since a PDF page has a
 * maximum height).
 */
import type { DanfeView } from './view-model.js';
import { nfceBlocks, type BlockSize, type ReceiptBlock } from './nfce-blocks.js';
import { qrMatrix, qrRuns } from './qrcode.js';
import { newPdf, pdfBuffer, type Pdf, type PdfOptions } from './pdf.js';

const MM = 72 / 25.4;
const PAGE_W = 80 * MM;
const PAD = 4 * MM;
const W = PAGE_W - 2 * PAD;
/** Tallest sheet we emit (PDF viewers refuse pages above 14 400 units). */
const MAX_PAGE_H = 14_000;
const QR_SIZE = 34 * MM;
const FONT: Record<BlockSize, number> = { s: 7, m: 8.5, l: 16 };

class Flow {
  y = PAD;
  pages = 0;
  constructor(private readonly doc: Pdf, private readonly draw: boolean, private readonly pageH: number) {}

  start(): void {
    this.pages++;
    if (this.draw) this.doc.addPage({ size: [PAGE_W, this.pageH], margin: 0 });
    this.y = PAD;
  }

  /** Room for `h` more points on this sheet, or a new sheet. */
  private need(h: number): void {
    if (this.y + h > this.pageH - PAD && this.y > PAD) this.start();
  }

  text(text: string, size: number, bold: boolean, align: 'left' | 'center' | 'right', color = '#000'): void {
    const doc = this.doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
    const h = doc.heightOfString(text, { width: W });
    this.need(h);
    if (this.draw) doc.fillColor(color).text(text, PAD, this.y, { width: W, align }).fillColor('#000');
    this.y += h + 1;
  }

  pair(left: string, right: string, bold: boolean): void {
    const doc = this.doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT.s);
    const rw = doc.widthOfString(right) + 2;
    const h = Math.max(doc.heightOfString(left, { width: W - rw - 4 }), doc.currentLineHeight(true));
    this.need(h);
    if (this.draw) {
      doc.text(left, PAD, this.y, { width: W - rw - 4 });
      doc.text(right, PAD + W - rw, this.y, { width: rw, align: 'right', lineBreak: false });
    }
    this.y += h + 1;
  }

  item(b: Extract<ReceiptBlock, { kind: 'item' }>): void {
    const doc = this.doc.font('Helvetica').fontSize(FONT.s);
    const desc = `${b.codigo} ${b.descricao}`;
    const h1 = doc.heightOfString(desc, { width: W });
    const line = doc.currentLineHeight(true);
    this.need(h1 + line);
    if (this.draw) {
      doc.text(desc, PAD, this.y, { width: W });
      doc.text(b.detalhe, PAD, this.y + h1, { width: W * 0.7, lineBreak: false });
      doc.font('Helvetica-Bold').text(b.total, PAD + W * 0.6, this.y + h1, { width: W * 0.4, align: 'right', lineBreak: false });
    }
    this.y += h1 + line + 1.5;
  }

  rule(): void {
    this.need(5);
    if (this.draw) this.doc.save().lineWidth(0.5).dash(1.5, { space: 1.5 }).moveTo(PAD, this.y + 2).lineTo(PAD + W, this.y + 2).stroke().undash().restore();
    this.y += 5;
  }

  qr(text: string): void {
    this.need(QR_SIZE + 6);
    if (this.draw) {
      const m = qrMatrix(text);
      const cell = QR_SIZE / m.size;
      const x0 = PAD + (W - QR_SIZE) / 2;
      for (const r of qrRuns(m)) this.doc.rect(x0 + r.x * cell, this.y + 3 + r.y * cell, r.w * cell, cell);
      this.doc.fill('#000');
    }
    this.y += QR_SIZE + 6;
  }
}

function run(doc: Pdf, blocks: readonly ReceiptBlock[], draw: boolean, pageH: number): Flow {
  const f = new Flow(doc, draw, pageH);
  f.start();
  for (const b of blocks) {
    switch (b.kind) {
      case 'text': f.text(b.text, FONT[b.size], !!b.bold, b.align, b.mark ? '#a00000' : '#000'); break;
      case 'pair': f.pair(b.left, b.right, !!b.bold); break;
      case 'itemsHead': f.pair('CÓDIGO DESCRIÇÃO / QTDE UN x VL UNIT', 'VL TOTAL', true); break;
      case 'item': f.item(b); break;
      case 'rule': f.rule(); break;
      case 'qr': f.qr(b.text); break;
    }
  }
  return f;
}

export async function renderNfcePdf(v: DanfeView, o: PdfOptions = {}): Promise<Buffer> {
  const doc = newPdf(`DANFE NFC-e ${v.accessKey}`, v.dhEmi, [PAGE_W, MAX_PAGE_H], o);
  const blocks = nfceBlocks(v);
  const measured = run(doc, blocks, false, MAX_PAGE_H);
  const pageH = measured.pages === 1 ? Math.ceil(measured.y + PAD) : MAX_PAGE_H;
  run(doc, blocks, true, pageH);
  return pdfBuffer(doc);
}
