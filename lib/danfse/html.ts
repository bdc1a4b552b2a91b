/**
 * DANFSe as one self-contained A4 HTML page: the same header, identification, QR code, blocks and
 * marks as the PDF (./pdf.ts), all from ./rows.ts; every text from the XML goes through `esc`.
 */
import { esc } from '../danfe/html.js';
import { qrMatrix, qrRuns } from '../danfe/qrcode.js';
import { danfseMarks, danfseSections, identificacao, QR_CAPTION } from './rows.js';
import type { DanfseField } from './fields.js';
import type { DanfseView } from './view-model.js';

/** The QR code of the public consultation as inline SVG (no external image), with its quiet zone. */
function qrSvg(text: string): string {
  const m = qrMatrix(text);
  const d = qrRuns(m).map((r) => `M${r.x + 4} ${r.y + 4}h${r.w}v1h-${r.w}z`).join('');
  const n = m.size + 8;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="qrcode" width="90" height="90" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges" role="img" aria-label="QR Code de consulta da NFS-e"><rect width="${n}" height="${n}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
}

const cell = (fd: DanfseField): string => `<td colspan="${fd.span}">${fd.label ? `<span class="l">${esc(fd.label)}</span>` : ''}<span class="v">${esc(fd.value)}</span></td>`;
const rows = (rs: DanfseField[][]): string => rs.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('');
const COLS = '<colgroup><col><col><col><col></colgroup>';

const CSS = '*{box-sizing:border-box}body{font-family:Arial,Helvetica,sans-serif;font-size:7.5pt;margin:0}'
  + '.page{width:200mm;margin:5mm auto;border:1pt solid #000;position:relative;overflow:hidden}'
  + 'header{display:grid;grid-template-columns:1fr 2fr 1fr;align-items:start;padding:4pt 6pt}'
  + '.brand b{font-size:20pt;display:block}.brand small{font-size:5.5pt}.title{text-align:center;font-weight:bold}.title h1{font-size:11pt;margin:0}'
  + '.hom{color:#c00000}.mun .l{display:block}.mun{font-size:8pt}'
  + 'section{border-top:.75pt solid #000}h2{font-size:7.5pt;text-transform:uppercase;margin:0;padding:3pt 3pt 0}'
  + 'table{width:100%;border-collapse:collapse;table-layout:fixed}td{vertical-align:top;padding:2pt 3pt 3pt}'
  + '.l{display:block;font-weight:bold;font-size:6pt}.v{display:block;white-space:pre-wrap;word-break:break-word}'
  + '.absent{text-align:center;font-size:7pt;padding:3pt}.qr{text-align:center;width:25%;font-size:5.5pt}'
  + '.mark{position:absolute;left:0;right:0;top:40%;text-align:center;font-size:48pt;font-weight:bold;color:rgba(200,0,0,.28);transform:rotate(-30deg);pointer-events:none;white-space:nowrap}.mark.long{font-size:32pt}'
  + '.mark small{display:block;font-size:16pt}';

export function renderDanfseHtml(v: DanfseView): string {
  const marks = danfseMarks(v).map((m, i) => `<div class="mark${m.text.length > 12 ? ' long' : ''}"${i ? ' style="top:65%"' : ''}>${esc(m.text)}${m.sub ? `<small>${esc(m.sub)}</small>` : ''}</div>`).join('');
  const [first, ...rest] = identificacao(v);
  const id = `<section class="identificacao"><table><colgroup><col><col><col><col></colgroup>`
    + `<tr>${first!.map(cell).join('')}<td class="qr" rowspan="3">${qrSvg(v.consultaUrl)}<div>${esc(QR_CAPTION)}</div></td></tr>${rows(rest)}</table></section>`;
  const blocks = danfseSections(v).map((s) => (s.absent
    ? `<section><div class="absent">${esc(s.absent)}</div></section>`
    : `<section><h2>${esc(s.title)}</h2><table>${COLS}${rows(s.rows)}</table></section>`)).join('');
  return '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">'
    + `<title>DANFSe ${esc(v.numero)} - ${esc(v.chaveAcesso)}</title><style>${CSS}</style></head><body><div class="page">${marks}`
    + '<header><div class="brand"><b>NFS-e</b><small>Nota Fiscal de Serviço eletrônica</small></div>'
    + `<div class="title"><h1>DANFSe v1.0</h1><div>Documento Auxiliar da NFS-e</div>${v.homologacao ? '<div class="hom">NFS-e SEM VALIDADE JURÍDICA</div>' : ''}</div>`
    + `<div class="mun"><span class="l">Município emissor da NFS-e</span>${esc(v.municipioEmissor || '-')}</div></header>`
    + id + blocks + '</div></body></html>';
}
