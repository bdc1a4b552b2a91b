/**
 * The access key as a Code-128 barcode (MOC 4.00, DANFE: Code-128C, 44 digits). bwip-js encodes
 * (an all-digit even-length text selects code set C); the renderers only draw the bars.
 */
import bwipjs from 'bwip-js';

export interface LinearBarcode {
  /** Widths in modules, alternating bar, space, bar… (starting with a bar). */
  widths: number[];
  /** Sum of the widths: the symbol's width in modules, quiet zones excluded. */
  modules: number;
}

export function code128(text: string): LinearBarcode {
  if (!/^\d+$/.test(text) || text.length % 2 !== 0) throw new RangeError('Code-128C needs an even number of digits');
  const raw = bwipjs.raw({ bcid: 'code128', text }) as Array<{ sbs?: number[] }>;
  const widths = raw[0]?.sbs;
  if (!widths?.length) throw new Error('bwip-js returned no bars for code128');
  return { widths, modules: widths.reduce((a, b) => a + b, 0) };
}

/** Bars as x offsets and widths in modules: what both renderers draw. */
export function bars(code: LinearBarcode): { x: number; w: number }[] {
  const out: { x: number; w: number }[] = [];
  let x = 0;
  code.widths.forEach((w, i) => {
    if (i % 2 === 0) out.push({ x, w });
    x += w;
  });
  return out;
}

/** An inline SVG of the barcode (HTML renderer): one path, crisp at any zoom. */
export function barcodeSvg(text: string, height = 40): string {
  const code = code128(text);
  const d = bars(code).map((b) => `M${b.x} 0h${b.w}v${height}h-${b.w}z`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="barcode" viewBox="0 0 ${code.modules} ${height}" preserveAspectRatio="none" role="img" aria-label="Código de barras da chave de acesso"><path d="${d}" fill="#000"/></svg>`;
}
