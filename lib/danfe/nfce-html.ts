/**
 * DANFE NFC-e as HTML: an 80 mm receipt (DANFE NFC-e manual) drawn from the receipt blocks
 * (lib/danfe/nfce-blocks.ts), with the QR code as inline SVG. Every text is escaped.
 */
import type { DanfeView } from './view-model.js';
import { nfceBlocks, type ReceiptBlock } from './nfce-blocks.js';
import { groupAccessKey } from './format.js';
import { esc } from './html.js';
import { qrSvg } from './qrcode.js';

const CSS = `
*{box-sizing:border-box}body{margin:0;background:#eee;font-family:Helvetica,Arial,sans-serif;color:#000}
.cupom{width:80mm;margin:8px auto;padding:3mm;background:#fff;font-size:7.5pt;line-height:1.25}
.s{font-size:7.5pt}.m{font-size:9pt}.l{font-size:16pt}.b{font-weight:bold}
.c{text-align:center}.r{text-align:right}.t{margin:1px 0;overflow-wrap:anywhere}
.mark{color:#a00000}
hr{border:0;border-top:1px dashed #000;margin:3px 0}
.pair{display:flex;justify-content:space-between;gap:6px}
.item{display:grid;grid-template-columns:1fr auto;column-gap:6px}.item .d{overflow-wrap:anywhere}.item .q{grid-column:1}.item .v{grid-column:2;grid-row:1 / span 2;align-self:end;text-align:right}
.head{display:flex;justify-content:space-between;font-size:6.5pt;font-weight:bold}
.qrcode{display:block;width:34mm;height:34mm;margin:4px auto}
@media print{body{background:#fff}.cupom{margin:0}}
`;

function block(b: ReceiptBlock): string {
  switch (b.kind) {
    case 'text': {
      const cls = ['t', b.size, b.bold ? 'b' : '', b.align === 'center' ? 'c' : b.align === 'right' ? 'r' : '', b.mark ? 'mark' : ''].filter(Boolean).join(' ');
      return `<p class="${cls}">${esc(b.text)}</p>`;
    }
    case 'pair':
      return `<div class="pair${b.bold ? ' b' : ''}"><span>${esc(b.left)}</span><span>${esc(b.right)}</span></div>`;
    case 'itemsHead':
      return '<div class="head"><span>CÓDIGO DESCRIÇÃO / QTDE UN x VL UNIT</span><span>VL TOTAL</span></div>';
    case 'item':
      return `<div class="item"><span class="d">${esc(b.codigo)} ${esc(b.descricao)}</span><span class="q">${esc(b.detalhe)}</span><span class="v">${esc(b.total)}</span></div>`;
    case 'rule':
      return '<hr>';
    case 'qr':
      return qrSvg(b.text);
  }
}

export function renderNfceHtml(v: DanfeView): string {
  return `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>DANFE NFC-e ${esc(groupAccessKey(v.accessKey))}</title><style>${CSS}</style></head>`
    + `<body><main class="cupom">${nfceBlocks(v).map(block).join('')}</main></body></html>`;
}
