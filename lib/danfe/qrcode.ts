/**
 * The NFC-e QR code image (DANFE NFC-e manual, division VII): the exact text of
 * infNFeSupl/qrCode, encoded by the `qrcode` package (error correction M). Renderers draw the
 * module matrix; nothing here rewrites the URL.
 */
import QRCode from 'qrcode';

export interface QrMatrix {
  size: number;
  /** Row-major dark modules. */
  dark: boolean[];
}

export function qrMatrix(text: string): QrMatrix {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const dark: boolean[] = new Array(size * size);
  for (let i = 0; i < size * size; i++) dark[i] = qr.modules.data[i] === 1;
  return { size, dark };
}

/** Dark modules merged into horizontal runs: fewer shapes to draw. */
export function qrRuns(m: QrMatrix): { x: number; y: number; w: number }[] {
  const runs: { x: number; y: number; w: number }[] = [];
  for (let y = 0; y < m.size; y++) {
    let x = 0;
    while (x < m.size) {
      if (!m.dark[y * m.size + x]) { x++; continue; }
      const start = x;
      while (x < m.size && m.dark[y * m.size + x]) x++;
      runs.push({ x: start, y, w: x - start });
    }
  }
  return runs;
}

/** Inline SVG with a 4-module quiet zone (HTML renderer). */
export function qrSvg(text: string): string {
  const m = qrMatrix(text);
  const q = 4;
  const d = qrRuns(m).map((r) => `M${r.x + q} ${r.y + q}h${r.w}v1h-${r.w}z`).join('');
  const n = m.size + 2 * q;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="qrcode" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges" role="img" aria-label="QR Code de consulta da NFC-e"><rect width="${n}" height="${n}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
}
