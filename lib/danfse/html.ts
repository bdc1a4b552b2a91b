import { esc, field } from '../danfe/html.js';
import { barcodeSvg } from '../danfe/barcode.js';
import { qrMatrix, qrRuns } from '../danfe/qrcode.js';
import { danfseMarks, danfseSections } from './rows.js';
import type { DanfseView } from './view-model.js';

/** The QR code of the public consultation as inline SVG (no external image). */
function qrSvg(text: string, px = 100): string {
  const m = qrMatrix(text);
  const rects = qrRuns(m).map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="1"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="-2 -2 ${m.size + 4} ${m.size + 4}" shape-rendering="crispEdges"><rect x="-2" y="-2" width="${m.size + 4}" height="${m.size + 4}" fill="#fff"/><g fill="#000">${rects}</g></svg>`;
}

/** DANFSe as one self-contained A4 HTML page (every XML text escaped). */
export function renderDanfseHtml(v: DanfseView): string {
  const sections = danfseSections(v).map((s) => `<h2>${esc(s.title)}</h2><table>${s.rows.map((row) => `<tr>${row.map((f) => field(f.label, f.value).replace('<td', `<td style="width:${(f.width * 100).toFixed(1)}%"`)).join('')}</tr>`).join('')}</table>`).join('');
  const marks = danfseMarks(v).map((m) => `<div class="mark">${esc(m)}</div>`).join('');
  return '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">'
    + `<title>DANFSe ${esc(v.numero)} - ${esc(v.chaveAcesso)}</title><style>`
    + 'body{font-family:Helvetica,Arial,sans-serif;font-size:10px;width:190mm;margin:10mm auto;position:relative}'
    + 'header{display:flex;justify-content:space-between;align-items:center;border:1px solid #000;padding:4px}'
    + 'h1{font-size:14px;margin:0}h2{font-size:9px;text-transform:uppercase;margin:6px 0 0;background:#eee;padding:2px;border:1px solid #000;border-bottom:0}'
    + 'table{width:100%;border-collapse:collapse}td.f{border:1px solid #000;padding:2px;vertical-align:top}'
    + '.l{display:block;font-size:7px;text-transform:uppercase}.v{display:block;font-weight:bold;word-break:break-word}'
    + '.mark{position:absolute;top:40%;left:0;width:100%;text-align:center;font-size:32px;color:rgba(192,0,0,.3);transform:rotate(-30deg);font-weight:bold}'
    + '</style></head><body>'
    + `<header><div><h1>DANFSe v1.0</h1><div>Documento Auxiliar da NFS-e</div><div>${esc(v.emitente.nome)}</div></div>`
    + `<div>${/^\d{50}$/.test(v.chaveAcesso) ? barcodeSvg(v.chaveAcesso, 30) : ""}</div>`
    + `<div style="text-align:center">${qrSvg(v.consultaUrl)}<div style="font-size:7px">A autenticidade desta NFS-e pode ser verificada pela leitura deste código QR ou pela consulta da chave de acesso no portal nacional da NFS-e</div></div></header>`
    + sections + marks + '</body></html>';
}
