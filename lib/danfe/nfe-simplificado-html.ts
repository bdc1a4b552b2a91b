/**
 * DANFE Simplificado – Etiqueta (tpImp 3; NT 2020.004, v1.10) as one HTML page of 100 × 150 mm,
 * with the blocks of the PDF label (nfe-simplificado-pdf.ts) in the same order: the access key's
 * Code-128C barcode with quiet zones and the grouped key; the title; the authorization protocol
 * with date and time (or the contingency notice); type of operation, number, series and emission
 * date; name, CNPJ/CPF, IE and UF of the issuer and of the recipient; the total value; the items as
 * far as the label holds them, the rest counted. Titles are bold capitals and no font is below 6 pt
 * (NT 2020.004, 02.3). Every text from the XML is escaped.
 */
import type { DanfeParty, DanfeView } from './view-model.js';
import { formatCnpjCpf, formatDate, formatDateTime, formatDecimal, formatMoney, formatNumber, formatSerie, groupAccessKey } from './format.js';
import { barcodeSvg } from './barcode.js';
import { esc } from './html.js';

/** Item lines the label holds under the fixed blocks: the PDF label's room (about 21 lines of 6 pt) less the count line. */
export const LABEL_ITEM_LINES = 20;

const CSS = `
@page{size:100mm 150mm;margin:0}
*{box-sizing:border-box}body{margin:0;font-family:Helvetica,Arial,sans-serif;font-size:7.5pt;color:#000;background:#eee}
.label{position:relative;width:100mm;height:150mm;margin:8px auto;padding:3mm;background:#fff;overflow:hidden}
.barcode{width:100%;height:12mm;display:block;padding:0 3.5mm}
.chave{text-align:center;font-weight:bold;font-size:7pt;margin:1mm 0}h1{text-align:center;font-size:9pt;margin:0 0 1mm}
.row{display:flex;gap:2mm}.row>div{flex:1;min-width:0}.f b{display:block;font-size:6pt;text-transform:uppercase}
.f span{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-height:9pt}
.blk{border-top:.5pt solid #000;margin-top:1mm;padding-top:.5mm}.blk h2{font-size:7pt;margin:0}
.itens{font-size:6pt}.itens b{font-size:6pt;text-transform:uppercase}.itens div{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.resto{position:absolute;left:3mm;right:3mm;bottom:3mm;font-weight:bold;font-size:6pt}
.mark{position:absolute;left:0;right:0;text-align:center;font-size:24pt;font-weight:bold;color:rgba(200,0,0,.28);transform:rotate(-30deg);pointer-events:none}
.mark small{display:block;font-size:9pt}
@media print{body{background:#fff}.label{margin:0}}
`;

const f = (label: string, value: string, flex = 1) =>
  `<div class="f" style="flex:${flex}"><b>${esc(label)}</b><span>${esc(value) || '&nbsp;'}</span></div>`;

function party(heading: string, p: DanfeParty | null): string {
  return `<div class="blk"><h2>${heading}</h2>${f('Nome / Razão social', p?.nome ?? '')}`
    + `<div class="row">${f('CNPJ / CPF', formatCnpjCpf(p?.documento), 1)}${f('Inscrição estadual', p?.ie ?? '', 0.65)}${f('UF', p?.endereco?.uf ?? '', 0.35)}</div></div>`;
}

function marks(v: DanfeView): string {
  const out: string[] = [];
  if (v.marcas.includes('CANCELADA')) out.push('<div class="mark cancelada" style="top:42%">CANCELADA</div>');
  if (v.marcas.includes('SEM_VALOR_FISCAL')) out.push('<div class="mark homologacao" style="top:58%">SEM VALOR FISCAL<small>EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO</small></div>');
  return out.join('');
}

export function renderNfeSimplificadoHtml(v: DanfeView): string {
  const prot = v.protocolo ? `${v.protocolo.numero} - ${formatDateTime(v.protocolo.dhRecbto)}` : 'EMITIDA EM CONTINGÊNCIA - pendente de autorização';
  const shown = v.items.slice(0, LABEL_ITEM_LINES);
  const rest = v.items.length - shown.length;
  const items = shown.map((i) => `<div>${esc(`${i.codigo} · ${i.descricao} · ${formatDecimal(i.quantidade, 4)} ${i.unidade} · ${formatMoney(i.valorTotal)}`)}</div>`).join('');
  const body = [
    barcodeSvg(v.accessKey),
    `<div class="chave">${esc(groupAccessKey(v.accessKey))}</div><h1>DANFE SIMPLIFICADO - ETIQUETA</h1>`,
    f('Protocolo de autorização de uso', prot),
    `<div class="row">${f('Tipo', v.tpNF === '0' ? '0 - ENTRADA' : '1 - SAÍDA')}${f('Número', formatNumber(v.numero), 1.2)}${f('Série', formatSerie(v.serie), 0.6)}${f('Emissão', formatDate(v.dhEmi), 1.2)}</div>`,
    party('EMITENTE', { ...v.emitente }),
    party('DESTINATÁRIO', v.destinatario),
    `<div class="blk">${f('Valor total da NF-e', `R$ ${formatMoney(v.totais.vNF)}`)}</div>`,
    `<div class="blk itens"><b>Itens (código · descrição · quant. · valor)</b>${items}</div>`,
    rest > 0 ? `<div class="resto">+ ${rest} ${rest === 1 ? 'item' : 'itens'}: consulte a NF-e pela chave de acesso</div>` : '',
  ].join('');
  return `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>DANFE Simplificado ${esc(groupAccessKey(v.accessKey))}</title><style>${CSS}</style></head>`
    + `<body><section class="label" data-formato="etiqueta">${marks(v)}${body}</section></body></html>`;
}
