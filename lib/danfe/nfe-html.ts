/**
 * DANFE of an NF-e as one HTML page per sheet, in the format the note asks for (tpImp, MOC 4.00
 * B21): A4 portrait (1) or landscape (2) with the MOC DANFE layout, and for 3 the simplified label
 * of nfe-simplificado-html.ts, the same choice as the PDF (nfe-pdf.ts). The A4 sheets: canhoto,
 * header with issuer, "DANFE", entrada/saída, number/series/sheet and the access key with its
 * Code-128C barcode, then the groups of the layout; item rows are paginated with the header
 * repeated on every sheet. Every text from the XML is escaped.
 */
import type { DanfeView, DanfeItem } from './view-model.js';
import {
  formatCep, formatCnpjCpf, formatDate, formatDateTime, formatDecimal, formatMoney, formatNumber, formatPhone, formatSerie,
  formatTime, groupAccessKey, MOD_FRETE,
} from './format.js';
import { barcodeSvg } from './barcode.js';
import { esc, field } from './html.js';
import { paginate, type PageSlice } from './paginate.js';
import { cartaCorrecaoText, hasDiscount, impostoRows } from './nfe-fields.js';
import { volumeLines } from './volumes.js';
import { renderNfeSimplificadoHtml } from './nfe-simplificado-html.js';

/**
 * An A4 sheet of the HTML DANFE and its item budget in printed lines. A browser lays the page out,
 * so the budgets are estimates in the proportions of the PDF's sheets (nfe-sheet.ts): a landscape
 * sheet is 87 mm shorter, which leaves the first sheet room for about 5 item lines under the fixed
 * groups and the next ones for 37; its wider description column holds about 60 characters a line.
 */
export interface HtmlSheet {
  orientation: 'portrait' | 'landscape';
  width: string;
  height: string;
  descriptionChars: number;
  firstLines: number;
  nextLines: number;
}

const PORTRAIT: HtmlSheet = { orientation: 'portrait', width: '210mm', height: '297mm', descriptionChars: 42, firstLines: 24, nextLines: 62 };
const LANDSCAPE: HtmlSheet = { orientation: 'landscape', width: '297mm', height: '210mm', descriptionChars: 60, firstLines: 5, nextLines: 37 };

export function htmlSheetFor(tpImp: number): HtmlSheet {
  return tpImp === 2 ? LANDSCAPE : PORTRAIT;
}

export function itemLines(item: DanfeItem, sheet: HtmlSheet = PORTRAIT): number {
  const text = item.infAdProd ? `${item.descricao} ${item.infAdProd}` : item.descricao;
  return Math.max(1, Math.ceil(text.length / sheet.descriptionChars));
}

const CSS = `
*{box-sizing:border-box}body{margin:0;font-family:Helvetica,Arial,sans-serif;font-size:8pt;color:#000;background:#eee}
.page{position:relative;margin:8px auto;padding:7mm;background:#fff;page-break-after:always;overflow:hidden}
.page:last-child{page-break-after:auto}
table{width:100%;border-collapse:collapse;table-layout:fixed;margin-top:2px}
td,th{border:1px solid #000;vertical-align:top;padding:1px 3px;overflow:hidden}
.f .l{display:block;font-size:5.5pt;text-transform:uppercase}.f.w .v{white-space:normal}.f .v{display:block;font-size:8pt;min-height:10pt;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.r .v,.r{text-align:right}.c{text-align:center}
h2{font-size:7pt;margin:5px 0 0;text-transform:uppercase}
.emit .logo{float:left;max-width:64px;max-height:64px;margin:0 6px 4px 0}.emit .nome{font-size:10pt;font-weight:bold;display:block;margin-bottom:3px}
.danfe{text-align:center}.danfe b{font-size:13pt;display:block}.danfe .tp{display:inline-block;border:1px solid #000;padding:0 6px;font-size:11pt;margin:2px}
.chave .v{font-size:8.5pt;font-weight:bold;letter-spacing:.5px}.barcode{width:100%;height:34px;display:block}
.itens th{font-size:5.5pt;font-weight:normal;text-transform:uppercase}.itens td{font-size:6.5pt;border-top:none;border-bottom:none}
.itens tr:last-child td{border-bottom:1px solid #000}.itens .d{white-space:normal}
.adic td{height:90px;white-space:pre-wrap;font-size:7pt}
.mark{position:absolute;left:0;right:0;top:40%;text-align:center;font-size:48pt;font-weight:bold;color:rgba(200,0,0,.28);transform:rotate(-30deg);pointer-events:none}
.mark small{display:block;font-size:16pt}
@media print{body{background:#fff}.page{margin:0}}
`;

function marksHtml(v: DanfeView): string {
  const out: string[] = [];
  if (v.marcas.includes('CANCELADA')) out.push('<div class="mark cancelada">CANCELADA</div>');
  if (v.marcas.includes('SEM_VALOR_FISCAL')) {
    out.push(`<div class="mark homologacao"${out.length ? ' style="top:60%"' : ''}>SEM VALOR FISCAL<small>EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO</small></div>`);
  }
  return out.join('');
}

function canhoto(v: DanfeView): string {
  const dest = v.destinatario?.nome ?? '';
  return `<table class="canhoto"><tr>
<td colspan="2" class="f"><span class="l">Recebemos de ${esc(v.emitente.nome)} os produtos e/ou serviços constantes da nota fiscal eletrônica indicada ao lado. Emissão: ${esc(formatDate(v.dhEmi))} · Destinatário: ${esc(dest)} · Valor total: R$ ${esc(formatMoney(v.totais.vNF))}</span><span class="v">&nbsp;</span></td>
<td rowspan="2" class="c" style="width:22%"><b>NF-e</b><br>Nº ${esc(formatNumber(v.numero))}<br>Série ${esc(formatSerie(v.serie))}</td></tr>
<tr>${field('Data de recebimento', '')}${field('Identificação e assinatura do recebedor', '')}</tr></table>`;
}

/** The issuer's logo as given by the issuer service (already checked as PNG/JPEG: lib/issuer/logo.ts). */
export interface HtmlLogo {
  base64: string;
  mime: string;
}

function header(v: DanfeView, page: number, pages: number, logo: HtmlLogo | null): string {
  const e = v.emitente;
  const a = e.endereco;
  const addr = a
    ? [`${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}`, `${a.bairro} - ${a.municipio} - ${a.uf}`, `CEP ${formatCep(a.cep)}`, a.fone ? `Fone: ${formatPhone(a.fone)}` : '']
      .filter(Boolean).map(esc).join('<br>')
    : '';
  const prot = v.protocolo ? `${v.protocolo.numero} - ${formatDateTime(v.protocolo.dhRecbto)}` : '';
  return `<table class="header"><colgroup><col style="width:38%"><col style="width:20%"><col style="width:42%"></colgroup><tr>
<td rowspan="3" class="emit">${logo ? `<img class="logo" alt="" src="data:${esc(logo.mime)};base64,${esc(logo.base64)}">` : ''}<span class="nome">${esc(e.nome)}</span>${addr}</td>
<td rowspan="3" class="danfe"><b>DANFE</b>Documento Auxiliar da Nota Fiscal Eletrônica<br>0 - ENTRADA<br>1 - SAÍDA <span class="tp">${esc(v.tpNF)}</span><br><b style="font-size:9pt">Nº ${esc(formatNumber(v.numero))}</b>SÉRIE ${esc(formatSerie(v.serie))}<br>FOLHA ${page}/${pages}</td>
<td>${barcodeSvg(v.accessKey)}</td></tr>
<tr>${field('Chave de acesso', groupAccessKey(v.accessKey), 'chave')}</tr>
<tr><td class="c">Consulta de autenticidade no portal nacional da NF-e www.nfe.fazenda.gov.br/portal ou no site da Sefaz Autorizadora</td></tr></table>
<table><colgroup><col style="width:58%"><col style="width:42%"></colgroup><tr>${field('Natureza da operação', v.naturezaOperacao)}${field('Protocolo de autorização de uso', prot)}</tr></table>
<table><tr>${field('Inscrição estadual', e.ie)}${field('Inscrição estadual do subst. trib.', e.iest)}${field('CNPJ / CPF', formatCnpjCpf(e.documento))}</tr></table>`;
}

function destinatario(v: DanfeView): string {
  const d = v.destinatario;
  const a = d?.endereco;
  return `<h2>Destinatário / Remetente</h2><table><colgroup><col style="width:50%"><col style="width:18%"><col style="width:14%"><col style="width:18%"></colgroup>
<tr>${field('Nome / Razão social', d?.nome ?? '')}<td class="f" colspan="2"><span class="l">CNPJ / CPF</span><span class="v">${esc(formatCnpjCpf(d?.documento))}</span></td>${field('Data da emissão', formatDate(v.dhEmi))}</tr>
<tr>${field('Endereço', a ? `${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}` : '')}${field('Bairro / Distrito', a?.bairro ?? '')}${field('CEP', formatCep(a?.cep))}${field('Data da saída/entrada', formatDate(v.dhSaiEnt))}</tr>
<tr>${field('Município', a?.municipio ?? '')}${field('Fone / Fax', formatPhone(a?.fone))}${field('UF', a?.uf ?? '')}<td class="f"><span class="l">Inscrição estadual</span><span class="v">${esc(d?.ie) || '&nbsp;'}</span><span class="l">Hora da saída: ${esc(formatTime(v.dhSaiEnt))}</span></td></tr></table>`;
}

function cobranca(v: DanfeView): string {
  if (!v.fatura && !v.duplicatas.length) return '';
  const fat = v.fatura
    ? `<tr><td colspan="6" class="f"><span class="l">Fatura</span><span class="v">Número ${esc(v.fatura.numero)} · Valor original R$ ${esc(formatMoney(v.fatura.valorOriginal))} · Desconto R$ ${esc(formatMoney(v.fatura.valorDesconto))} · Valor líquido R$ ${esc(formatMoney(v.fatura.valorLiquido))}</span></td></tr>`
    : '';
  const cells = v.duplicatas.map((d) => `<td class="f"><span class="l">Nº ${esc(d.numero)}</span><span class="v">${esc(formatDate(d.vencimento))} · R$ ${esc(formatMoney(d.valor))}</span></td>`);
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 6) rows.push(`<tr>${cells.slice(i, i + 6).join('')}${'<td></td>'.repeat(Math.max(0, 6 - cells.slice(i, i + 6).length))}</tr>`);
  return `<h2>Fatura / Duplicatas</h2><table>${fat}${rows.join('')}</table>`;
}

function imposto(v: DanfeView): string {
  const rows = impostoRows(v).map((row) => `<tr>${row.map(([label, value]) => field(label, formatMoney(value || '0.00'), 'r')).join('')}</tr>`);
  return `<h2>Cálculo do imposto</h2><table>${rows.join('')}</table>`;
}

function transporte(v: DanfeView): string {
  const tr = v.transporte;
  const t = tr.transportador;
  const { lines, total } = volumeLines(tr.volumes);
  const vols = [...(lines.length ? lines : [null]), ...(total ? [total] : [])].map((vol) => `<tr>${field('Quantidade', vol?.quantidade ?? '')}${field('Espécie', vol?.especie ?? '')}${field('Marca', vol?.marca ?? '')}${field('Numeração', vol?.numeracao ?? '')}${field('Peso bruto', formatDecimal(vol?.pesoBruto, 3), 'r')}${field('Peso líquido', formatDecimal(vol?.pesoLiquido, 3), 'r')}</tr>`);
  return `<h2>Transportador / Volumes transportados</h2><table><colgroup><col style="width:32%"><col style="width:20%"><col style="width:12%"><col style="width:12%"><col style="width:6%"><col style="width:18%"></colgroup>
<tr>${field('Nome / Razão social', t?.nome ?? '')}${field('Frete', MOD_FRETE[tr.modFrete] ?? tr.modFrete, 'w')}${field('Código ANTT', tr.veiculo?.rntc ?? '')}${field('Placa do veículo', tr.veiculo?.placa ?? '')}${field('UF', tr.veiculo?.uf ?? '')}${field('CNPJ / CPF', formatCnpjCpf(t?.documento))}</tr>
<tr><td class="f" colspan="2"><span class="l">Endereço</span><span class="v">${esc(t?.endereco) || '&nbsp;'}</span></td>${field('Município', t?.municipio ?? '')}<td></td>${field('UF', t?.uf ?? '')}${field('Inscrição estadual', t?.ie ?? '')}</tr>
${vols.join('')}</table>`;
}

const ITEM_HEAD = ['Código', 'Descrição do produto / serviço', 'NCM/SH', 'O/CST', 'CFOP', 'Un', 'Quant.', 'Valor unit.', 'Valor total', 'B. cálc. ICMS', 'Valor ICMS', 'Valor IPI', 'Alíq. ICMS', 'Alíq. IPI'];
const ITEM_WIDTHS = [8, 24, 6, 4, 4, 3.5, 6.5, 7, 7, 7, 6, 5.5, 4.5, 4.5];

function itemRow(i: DanfeItem, desc: boolean): string {
  const d = i.infAdProd ? `${esc(i.descricao)}<br><i>${esc(i.infAdProd)}</i>` : esc(i.descricao);
  return `<tr><td>${esc(i.codigo)}</td><td class="d">${d}</td><td>${esc(i.ncm)}</td><td>${esc(i.cst)}</td><td>${esc(i.cfop)}</td><td>${esc(i.unidade)}</td>`
    + `<td class="r">${esc(formatDecimal(i.quantidade, 4))}</td><td class="r">${esc(formatDecimal(i.valorUnitario, 2))}</td><td class="r">${esc(formatMoney(i.valorTotal))}</td>${desc ? `<td class="r">${esc(formatMoney(i.valorDesconto))}</td>` : ''}`
    + `<td class="r">${esc(formatMoney(i.bcIcms))}</td><td class="r">${esc(formatMoney(i.valorIcms))}</td><td class="r">${esc(formatMoney(i.valorIpi))}</td>`
    + `<td class="r">${esc(formatDecimal(i.aliquotaIcms, 2))}</td><td class="r">${esc(formatDecimal(i.aliquotaIpi, 2))}</td></tr>`;
}

function itemsTable(items: readonly DanfeItem[], desc: boolean): string {
  const head = desc ? [...ITEM_HEAD.slice(0, 9), 'V. desc.', ...ITEM_HEAD.slice(9)] : ITEM_HEAD;
  const widths = desc ? [...ITEM_WIDTHS.slice(0, 1), ITEM_WIDTHS[1]! - 5, ...ITEM_WIDTHS.slice(2, 9), 5, ...ITEM_WIDTHS.slice(9)] : ITEM_WIDTHS;
  const cols = widths.map((w) => `<col style="width:${w}%">`).join('');
  return `<h2>Dados dos produtos / serviços</h2><table class="itens"><colgroup>${cols}</colgroup><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${items.map((i) => itemRow(i, desc)).join('')}</tbody></table>`;
}

function adicionais(v: DanfeView): string {
  const cont = v.contingencia ? `Contingência desde ${formatDateTime(v.contingencia.dhCont)}: ${v.contingencia.xJust}\n` : '';
  return `<h2>Dados adicionais</h2><table class="adic"><colgroup><col style="width:65%"><col style="width:35%"></colgroup><tr><td class="f"><span class="l">Informações complementares</span>${esc(cont + v.infCpl + (v.cartaCorrecao ? `\n${cartaCorrecaoText(v)}` : ''))}</td><td class="f"><span class="l">Reservado ao fisco</span>${esc(v.infAdFisco)}</td></tr></table>`;
}

/**
 * Item lines left on the first sheet once its variable groups take their rows: every volume line
 * past the first, the fatura and each row of six duplicatas, with the group's title. A field row is
 * about three item lines (20 pt against 7 pt in the PDF).
 */
const ROW_LINES = 3;
export function firstSheetLines(v: DanfeView, sheet: HtmlSheet): number {
  const { lines, total } = volumeLines(v.transporte.volumes);
  const volumeRows = Math.max(1, lines.length + (total ? 1 : 0));
  const cobrancaRows = v.fatura || v.duplicatas.length ? 1 + (v.fatura ? 1 : 0) + Math.ceil(v.duplicatas.length / 6) : 0;
  return sheet.firstLines - ROW_LINES * (volumeRows - 1 + cobrancaRows);
}

/** paginate(), except that a first sheet without room for items carries none: they start on sheet 2 (as in the PDF). */
function paginateItems(lines: readonly number[], first: number, next: number): PageSlice[] {
  if (first > 0) return paginate(lines, first, next);
  return [{ start: 0, end: 0 }, ...paginate(lines, next, next)];
}

/** The sheet's size, for the screen (.page) and for the printer (@page, CSS Paged Media). */
const sheetCss = (s: HtmlSheet) => `@page{size:A4 ${s.orientation};margin:0}.page{width:${s.width};min-height:${s.height}}${s.orientation === 'landscape' ? '.adic td{height:60px}' : ''}`;

export function renderNfeHtml(v: DanfeView, logo: HtmlLogo | null = null): string {
  if (v.tpImp === 3) return renderNfeSimplificadoHtml(v);
  const sheet = htmlSheetFor(v.tpImp);
  const slices = paginateItems(v.items.map((i) => itemLines(i, sheet)), firstSheetLines(v, sheet), sheet.nextLines);
  const pages = slices.map((slice, i) => {
    const first = i === 0;
    const body = [
      first ? canhoto(v) : '',
      header(v, i + 1, slices.length, logo),
      first ? destinatario(v) + cobranca(v) + imposto(v) + transporte(v) : '',
      slice.end > slice.start || !v.items.length ? itemsTable(v.items.slice(slice.start, slice.end), hasDiscount(v)) : '',
      first ? adicionais(v) : '',
    ].join('');
    return `<section class="page" data-folha="${i + 1}">${marksHtml(v)}${body}</section>`;
  });
  return `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>DANFE ${esc(groupAccessKey(v.accessKey))}</title><style>${CSS}${sheetCss(sheet)}</style></head><body>${pages.join('')}</body></html>`;
}
