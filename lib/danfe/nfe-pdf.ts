/**
 * DANFE of an NF-e as a portrait A4 PDF (MOC 4.00, DANFE layout): canhoto, header (issuer,
 * "DANFE", entrada/saída, number, series, sheet, access key with its Code-128C barcode,
 * protocol), recipient, fatura/duplicatas, tax totals, transport, items and additional data. The
 * item rows are measured, paginated (lib/danfe/paginate.ts) and continue on sheets that repeat the
 * header. Homologation and canceled notes carry a diagonal mark on every sheet.
 */
import type { DanfeItem, DanfeView } from './view-model.js';
import {
  formatCep, formatCnpjCpf, formatDate, formatDateTime, formatDecimal, formatMoney, formatNumber, formatPhone, formatSerie,
  formatTime, groupAccessKey, MOD_FRETE,
} from './format.js';
import { bars, code128 } from './barcode.js';
import { paginate } from './paginate.js';
import { box, diagonalMark, newPdf, pdfBuffer, title, type Pdf, type PdfOptions } from './pdf.js';

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const M = 18;
const W = PAGE_W - 2 * M;
const ROW = 20;
const HEADER_H = 112;
const ADIC_H = 78;
const ITEM_FONT = 5.8;
const ITEM_LINE = 7;
const ITEM_HEAD_H = 15;

/** Items table columns: label, width (pt), alignment. */
const COLS: { label: string; w: number; align: 'left' | 'right' | 'center' }[] = [
  { label: 'CÓDIGO', w: 44, align: 'left' },
  { label: 'DESCRIÇÃO DO PRODUTO / SERVIÇO', w: 150, align: 'left' },
  { label: 'NCM/SH', w: 32, align: 'center' },
  { label: 'O/CST', w: 20, align: 'center' },
  { label: 'CFOP', w: 20, align: 'center' },
  { label: 'UN', w: 18, align: 'center' },
  { label: 'QUANT.', w: 36, align: 'right' },
  { label: 'VALOR UNIT.', w: 38, align: 'right' },
  { label: 'VALOR TOTAL', w: 40, align: 'right' },
  { label: 'B. CÁLC. ICMS', w: 40, align: 'right' },
  { label: 'VALOR ICMS', w: 36, align: 'right' },
  { label: 'VALOR IPI', w: 33, align: 'right' },
  { label: 'ALÍQ. ICMS', w: 26, align: 'right' },
  { label: 'ALÍQ. IPI', w: 26, align: 'right' },
];
const DESC_W = COLS[1]!.w - 4;

function cells(i: DanfeItem): string[] {
  return [
    i.codigo, i.infAdProd ? `${i.descricao}\n${i.infAdProd}` : i.descricao, i.ncm, i.cst, i.cfop, i.unidade,
    formatDecimal(i.quantidade, 4), formatDecimal(i.valorUnitario, 2), formatMoney(i.valorTotal),
    formatMoney(i.bcIcms), formatMoney(i.valorIcms), formatMoney(i.valorIpi), formatDecimal(i.aliquotaIcms, 2), formatDecimal(i.aliquotaIpi, 2),
  ];
}

function rowHeight(doc: Pdf, i: DanfeItem): number {
  doc.font('Helvetica').fontSize(ITEM_FONT);
  const text = cells(i)[1]!;
  const lines = Math.max(1, Math.round(doc.heightOfString(text, { width: DESC_W, lineGap: 0 }) / doc.currentLineHeight(true)));
  return lines * ITEM_LINE + 3;
}

function canhoto(doc: Pdf, v: DanfeView, y: number): number {
  const right = 110;
  const h = 34;
  doc.lineWidth(0.5).rect(M, y, W - right, h / 2).stroke();
  doc.font('Helvetica').fontSize(5.5).text(
    `RECEBEMOS DE ${v.emitente.nome.toUpperCase()} OS PRODUTOS E/OU SERVIÇOS CONSTANTES DA NOTA FISCAL ELETRÔNICA INDICADA AO LADO. `
    + `EMISSÃO: ${formatDate(v.dhEmi)} VALOR TOTAL: R$ ${formatMoney(v.totais.vNF)} DESTINATÁRIO: ${v.destinatario?.nome ?? ''}`,
    M + 2, y + 2, { width: W - right - 4, height: h / 2 - 3, ellipsis: true },
  );
  box(doc, M, y + h / 2, 110, h / 2, 'Data de recebimento', '');
  box(doc, M + 110, y + h / 2, W - right - 110, h / 2, 'Identificação e assinatura do recebedor', '');
  doc.rect(M + W - right, y, right, h).stroke();
  doc.font('Helvetica-Bold').fontSize(10).text('NF-e', M + W - right, y + 3, { width: right, align: 'center' });
  doc.fontSize(8).text(`Nº ${formatNumber(v.numero)}`, M + W - right, y + 15, { width: right, align: 'center' });
  doc.text(`SÉRIE ${formatSerie(v.serie)}`, M + W - right, y + 24, { width: right, align: 'center' });
  doc.save().dash(2, { space: 2 }).moveTo(M, y + h + 4).lineTo(M + W, y + h + 4).stroke().undash().restore();
  return y + h + 8;
}

function header(doc: Pdf, v: DanfeView, y: number, page: number, pages: number): number {
  const e = v.emitente;
  const a = e.endereco;
  const wEmit = 220;
  const wDanfe = 105;
  const wKey = W - wEmit - wDanfe;
  doc.lineWidth(0.5).rect(M, y, wEmit, HEADER_H).stroke();
  doc.font('Helvetica-Bold').fontSize(9).text(e.nome, M + 4, y + 8, { width: wEmit - 8, align: 'center', height: 34, ellipsis: true });
  const addr = a ? [`${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}`, `${a.bairro} - ${a.municipio} - ${a.uf}`, `CEP ${formatCep(a.cep)}`, a.fone ? `Fone: ${formatPhone(a.fone)}` : ''].filter(Boolean).join('\n') : '';
  doc.font('Helvetica').fontSize(7).text(addr, M + 4, y + 46, { width: wEmit - 8, align: 'center', height: HEADER_H - 50, ellipsis: true });

  const xd = M + wEmit;
  doc.rect(xd, y, wDanfe, HEADER_H).stroke();
  doc.font('Helvetica-Bold').fontSize(14).text('DANFE', xd, y + 5, { width: wDanfe, align: 'center' });
  doc.font('Helvetica').fontSize(6.5).text('Documento Auxiliar da Nota Fiscal Eletrônica', xd + 6, y + 22, { width: wDanfe - 12, align: 'center' });
  doc.fontSize(7).text('0 - ENTRADA', xd + 10, y + 44).text('1 - SAÍDA', xd + 10, y + 53);
  doc.rect(xd + wDanfe - 28, y + 43, 16, 17).stroke();
  doc.font('Helvetica-Bold').fontSize(11).text(v.tpNF, xd + wDanfe - 28, y + 47, { width: 16, align: 'center' });
  doc.fontSize(8).text(`Nº ${formatNumber(v.numero)}`, xd, y + 68, { width: wDanfe, align: 'center' });
  doc.text(`SÉRIE ${formatSerie(v.serie)}`, xd, y + 79, { width: wDanfe, align: 'center' });
  doc.text(`FOLHA ${page}/${pages}`, xd, y + 90, { width: wDanfe, align: 'center' });

  const xk = xd + wDanfe;
  doc.rect(xk, y, wKey, 46).stroke();
  const code = code128(v.accessKey);
  const module = (wKey - 20) / code.modules;
  for (const b of bars(code)) doc.rect(xk + 10 + b.x * module, y + 5, b.w * module, 36).fill('#000');
  box(doc, xk, y + 46, wKey, 22, 'Chave de acesso', groupAccessKey(v.accessKey), 'center', 8);
  doc.rect(xk, y + 68, wKey, HEADER_H - 68).stroke();
  doc.font('Helvetica').fontSize(7.5).text('Consulta de autenticidade no portal nacional da NF-e www.nfe.fazenda.gov.br/portal ou no site da Sefaz Autorizadora',
    xk + 6, y + 76, { width: wKey - 12, align: 'center' });
  y += HEADER_H;

  const prot = v.protocolo ? `${v.protocolo.numero} - ${formatDateTime(v.protocolo.dhRecbto)}` : '';
  box(doc, M, y, wEmit + wDanfe, ROW, 'Natureza da operação', v.naturezaOperacao);
  box(doc, xk, y, wKey, ROW, 'Protocolo de autorização de uso', prot, 'center');
  y += ROW;
  const third = W / 3;
  box(doc, M, y, third, ROW, 'Inscrição estadual', e.ie);
  box(doc, M + third, y, third, ROW, 'Inscrição estadual do subst. trib.', e.iest);
  box(doc, M + 2 * third, y, third, ROW, 'CNPJ / CPF', formatCnpjCpf(e.documento));
  return y + ROW;
}

function destinatario(doc: Pdf, v: DanfeView, y: number): number {
  const d = v.destinatario;
  const a = d?.endereco;
  title(doc, M, y + 2, 'Destinatário / Remetente');
  y += 9;
  const w4 = 80;
  box(doc, M, y, W - 140 - w4, ROW, 'Nome / Razão social', d?.nome ?? '');
  box(doc, M + W - 140 - w4, y, 140, ROW, 'CNPJ / CPF', formatCnpjCpf(d?.documento));
  box(doc, M + W - w4, y, w4, ROW, 'Data da emissão', formatDate(v.dhEmi), 'center');
  y += ROW;
  box(doc, M, y, W - 200 - w4, ROW, 'Endereço', a ? `${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}` : '');
  box(doc, M + W - 200 - w4, y, 130, ROW, 'Bairro / Distrito', a?.bairro ?? '');
  box(doc, M + W - 70 - w4, y, 70, ROW, 'CEP', formatCep(a?.cep), 'center');
  box(doc, M + W - w4, y, w4, ROW, 'Data da saída/entrada', formatDate(v.dhSaiEnt), 'center');
  y += ROW;
  box(doc, M, y, W - 260 - w4, ROW, 'Município', a?.municipio ?? '');
  box(doc, M + W - 260 - w4, y, 100, ROW, 'Fone / Fax', formatPhone(a?.fone));
  box(doc, M + W - 160 - w4, y, 30, ROW, 'UF', a?.uf ?? '', 'center');
  box(doc, M + W - 130 - w4, y, 130, ROW, 'Inscrição estadual', d?.ie ?? '');
  box(doc, M + W - w4, y, w4, ROW, 'Hora da saída/entrada', formatTime(v.dhSaiEnt), 'center');
  return y + ROW;
}

function cobranca(doc: Pdf, v: DanfeView, y: number): number {
  if (!v.fatura && !v.duplicatas.length) return y;
  title(doc, M, y + 2, 'Fatura / Duplicatas');
  y += 9;
  if (v.fatura) {
    const f = v.fatura;
    box(doc, M, y, W, ROW, 'Fatura', `Número ${f.numero}   Valor original R$ ${formatMoney(f.valorOriginal)}   Desconto R$ ${formatMoney(f.valorDesconto)}   Valor líquido R$ ${formatMoney(f.valorLiquido)}`);
    y += ROW;
  }
  const per = 6;
  const cw = W / per;
  v.duplicatas.forEach((d, i) => {
    const yy = y + Math.floor(i / per) * ROW;
    box(doc, M + (i % per) * cw, yy, cw, ROW, `Nº ${d.numero}  Venc. ${formatDate(d.vencimento)}`, `R$ ${formatMoney(d.valor)}`, 'right');
  });
  return y + Math.ceil(v.duplicatas.length / per) * ROW;
}

function imposto(doc: Pdf, v: DanfeView, y: number): number {
  const t = v.totais;
  title(doc, M, y + 2, 'Cálculo do imposto');
  y += 9;
  const rows: [string, string][][] = [
    [['Base de cálc. do ICMS', t.vBC], ['Valor do ICMS', t.vICMS], ['Base de cálc. ICMS S.T.', t.vBCST], ['Valor do ICMS subst.', t.vST], ['V. imp. importação', t.vII], ['V. total tributos', t.vTotTrib], ['Valor total dos produtos', t.vProd]],
    [['Valor do frete', t.vFrete], ['Valor do seguro', t.vSeg], ['Desconto', t.vDesc], ['Outras despesas', t.vOutro], ['Valor total do IPI', t.vIPI], ['V. ICMS desonerado', t.vICMSDeson], ['Valor total da nota', t.vNF]],
  ];
  for (const row of rows) {
    const cw = W / row.length;
    row.forEach(([label, value], i) => box(doc, M + i * cw, y, cw, ROW, label, formatMoney(value || '0.00'), 'right'));
    y += ROW;
  }
  return y;
}

function transporte(doc: Pdf, v: DanfeView, y: number): number {
  const tr = v.transporte;
  const t = tr.transportador;
  const vol = tr.volumes[0];
  title(doc, M, y + 2, 'Transportador / Volumes transportados');
  y += 9;
  const r1: [string, string, number][] = [['Nome / Razão social', t?.nome ?? '', 170], ['Frete', MOD_FRETE[tr.modFrete] ?? tr.modFrete, 120], ['Código ANTT', tr.veiculo?.rntc ?? '', 60], ['Placa do veículo', tr.veiculo?.placa ?? '', 60], ['UF', tr.veiculo?.uf ?? '', 25], ['CNPJ / CPF', formatCnpjCpf(t?.documento), W - 435]];
  const r2: [string, string, number][] = [['Endereço', t?.endereco ?? '', 290], ['Município', t?.municipio ?? '', 120], ['UF', t?.uf ?? '', 25], ['Inscrição estadual', t?.ie ?? '', W - 435]];
  const r3: [string, string, number][] = [['Quantidade', vol?.quantidade ?? '', 70], ['Espécie', vol?.especie ?? '', 100], ['Marca', vol?.marca ?? '', 100], ['Numeração', vol?.numeracao ?? '', 100], ['Peso bruto', formatDecimal(vol?.pesoBruto, 3), 95], ['Peso líquido', formatDecimal(vol?.pesoLiquido, 3), W - 465]];
  for (const row of [r1, r2, r3]) {
    let x = M;
    for (const [label, value, w] of row) { box(doc, x, y, w, ROW, label, value); x += w; }
    y += ROW;
  }
  return y;
}

function itemsHead(doc: Pdf, y: number): number {
  title(doc, M, y + 2, 'Dados dos produtos / serviços');
  y += 9;
  let x = M;
  doc.font('Helvetica').fontSize(4.8);
  for (const c of COLS) {
    doc.lineWidth(0.5).rect(x, y, c.w, ITEM_HEAD_H).stroke();
    doc.text(c.label, x + 1, y + 2, { width: c.w - 2, align: 'center', height: ITEM_HEAD_H - 2 });
    x += c.w;
  }
  return y + ITEM_HEAD_H;
}

function itemRows(doc: Pdf, items: readonly DanfeItem[], heights: readonly number[], y: number, bottom: number): void {
  const top = y;
  doc.font('Helvetica').fontSize(ITEM_FONT).fillColor('#000');
  items.forEach((item, k) => {
    let x = M;
    cells(item).forEach((value, c) => {
      const col = COLS[c]!;
      doc.text(value, x + 2, y + 2, c === 1 ? { width: col.w - 4, lineGap: 0 } : { width: col.w - 4, align: col.align, lineBreak: false, ellipsis: true, height: ITEM_LINE });
      x += col.w;
    });
    y += heights[k]!;
  });
  // Column rules down to the end of the items area.
  let x = M;
  doc.lineWidth(0.5);
  for (const c of COLS) { doc.rect(x, top, c.w, bottom - top).stroke(); x += c.w; }
}

function adicionais(doc: Pdf, v: DanfeView, y: number): void {
  title(doc, M, y + 2, 'Dados adicionais');
  y += 9;
  const wl = W * 0.65;
  const cont = v.contingencia ? `Contingência desde ${formatDateTime(v.contingencia.dhCont)}: ${v.contingencia.xJust}\n` : '';
  box(doc, M, y, wl, ADIC_H - 9, 'Informações complementares', '');
  doc.font('Helvetica').fontSize(6).text(cont + v.infCpl, M + 2, y + 8, { width: wl - 4, height: ADIC_H - 18, ellipsis: true });
  box(doc, M + wl, y, W - wl, ADIC_H - 9, 'Reservado ao fisco', '');
  doc.font('Helvetica').fontSize(6).text(v.infAdFisco, M + wl + 2, y + 8, { width: W - wl - 4, height: ADIC_H - 18, ellipsis: true });
}

function marks(doc: Pdf, v: DanfeView): void {
  if (v.marcas.includes('CANCELADA')) diagonalMark(doc, 'CANCELADA', null, PAGE_W / 2, PAGE_H * 0.45, PAGE_W, 72);
  if (v.marcas.includes('SEM_VALOR_FISCAL')) diagonalMark(doc, 'SEM VALOR FISCAL', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO', PAGE_W / 2, PAGE_H * (v.marcas.includes('CANCELADA') ? 0.65 : 0.5), PAGE_W, 56);
}

/** Height the first sheet's fixed groups take above the items (depends on the number of duplicatas). */
function firstPageItemsTop(v: DanfeView): number {
  const cobr = v.fatura || v.duplicatas.length ? 9 + (v.fatura ? ROW : 0) + Math.ceil(v.duplicatas.length / 6) * ROW : 0;
  return M + 42 + HEADER_H + 2 * ROW + (9 + 3 * ROW) + cobr + (9 + 2 * ROW) + (9 + 3 * ROW) + 9 + ITEM_HEAD_H;
}

export interface NfePdfLayout {
  pages: number;
  /** Item index ranges per sheet. */
  slices: { start: number; end: number }[];
}

export async function renderNfePdf(v: DanfeView, o: PdfOptions = {}): Promise<Buffer> {
  return (await renderNfePdfWithLayout(v, o)).pdf;
}

export async function renderNfePdfWithLayout(v: DanfeView, o: PdfOptions = {}): Promise<{ pdf: Buffer; layout: NfePdfLayout }> {
  const doc = newPdf(`DANFE ${v.accessKey}`, v.dhEmi, 'A4', o);
  const heights = v.items.map((i) => rowHeight(doc, i));
  const adicTop = PAGE_H - M - ADIC_H;
  const firstCapacity = adicTop - 4 - firstPageItemsTop(v);
  const nextTop = M + HEADER_H + 2 * ROW + 9 + ITEM_HEAD_H;
  const slices = paginate(heights, firstCapacity, PAGE_H - M - nextTop);
  slices.forEach((slice, p) => {
    doc.addPage({ size: 'A4', margin: 0 });
    let y = M;
    if (p === 0) {
      y = canhoto(doc, v, y);
      y = header(doc, v, y, 1, slices.length);
      y = destinatario(doc, v, y);
      y = cobranca(doc, v, y);
      y = imposto(doc, v, y);
      y = transporte(doc, v, y);
      y = itemsHead(doc, y);
      if (y !== firstPageItemsTop(v)) throw new Error(`DANFE layout drift: items start at ${y}, paginated for ${firstPageItemsTop(v)}`);
      itemRows(doc, v.items.slice(slice.start, slice.end), heights.slice(slice.start, slice.end), y, adicTop - 4);
      adicionais(doc, v, adicTop - 4);
    } else {
      y = header(doc, v, y, p + 1, slices.length);
      y = itemsHead(doc, y);
      itemRows(doc, v.items.slice(slice.start, slice.end), heights.slice(slice.start, slice.end), y, PAGE_H - M);
    }
    marks(doc, v);
  });
  return { pdf: await pdfBuffer(doc), layout: { pages: slices.length, slices } };
}
