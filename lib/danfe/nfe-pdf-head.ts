/**
 * The top blocks of the NF-e DANFE (MOC 4.00 Anexo II): canhoto, the header (issuer with its logo,
 * "DANFE", entrada/saída, number, series, sheet, access key with its Code-128C barcode, protocol),
 * recipient and fatura/duplicatas. Each block draws from `y` and returns where the next begins;
 * its height never depends on the drawing, so pagination can be planned beforehand.
 */
import type { DanfeView } from './view-model.js';
import {
  formatCep, formatCnpjCpf, formatDate, formatDateTime, formatMoney, formatNumber, formatPhone, formatSerie, formatTime, groupAccessKey,
} from './format.js';
import { bars, code128 } from './barcode.js';
import { box, title, type Pdf } from './pdf.js';
import { CANHOTO_H, HEADER_H, ROW, TITLE_H, type Sheet } from './nfe-sheet.js';

const DUP_PER_ROW = 6;
const LOGO_BOX = 64;

export function canhoto(doc: Pdf, s: Sheet, v: DanfeView, y: number): number {
  const { m: M, w: W } = s;
  const right = 110;
  const h = CANHOTO_H - 8;
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
  return y + CANHOTO_H;
}

/** The issuer block: the logo (when the issuer uploaded one) on the left, name and address beside it. */
function emitente(doc: Pdf, v: DanfeView, x: number, y: number, w: number, logo: Buffer | undefined): void {
  const e = v.emitente;
  const a = e.endereco;
  doc.lineWidth(0.5).rect(x, y, w, HEADER_H).stroke();
  let tx = x + 4;
  let tw = w - 8;
  if (logo) {
    doc.image(logo, x + 4, y + (HEADER_H - LOGO_BOX) / 2, { fit: [LOGO_BOX, LOGO_BOX], align: 'center', valign: 'center' });
    tx = x + LOGO_BOX + 8;
    tw = w - LOGO_BOX - 12;
  }
  doc.font('Helvetica-Bold').fontSize(9).text(e.nome, tx, y + 8, { width: tw, align: 'center', height: 34, ellipsis: true });
  const addr = a ? [`${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}`, `${a.bairro} - ${a.municipio} - ${a.uf}`, `CEP ${formatCep(a.cep)}`, a.fone ? `Fone: ${formatPhone(a.fone)}` : ''].filter(Boolean).join('\n') : '';
  doc.font('Helvetica').fontSize(7).text(addr, tx, y + 46, { width: tw, align: 'center', height: HEADER_H - 50, ellipsis: true });
}

export function header(doc: Pdf, s: Sheet, v: DanfeView, y: number, page: number, pages: number, logo?: Buffer): number {
  const { m: M, w: W } = s;
  const e = v.emitente;
  const wEmit = 220 + (W - 559) / 2;
  const wDanfe = 105;
  const wKey = W - wEmit - wDanfe;
  emitente(doc, v, M, y, wEmit, logo);

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
  // MOC: the barcode keeps its proportions; a wider (landscape) sheet does not stretch it past 300 pt.
  const bw = Math.min(wKey - 20, 300);
  const module = bw / code.modules;
  for (const b of bars(code)) doc.rect(xk + (wKey - bw) / 2 + b.x * module, y + 5, b.w * module, 36).fill('#000');
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

export const HEADER_BLOCK_H = HEADER_H + 2 * ROW;

export function destinatario(doc: Pdf, s: Sheet, v: DanfeView, y: number): number {
  const { m: M, w: W } = s;
  const d = v.destinatario;
  const a = d?.endereco;
  title(doc, M, y + 2, 'Destinatário / Remetente');
  y += TITLE_H;
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

export const DESTINATARIO_H = TITLE_H + 3 * ROW;

/** The duplicatas the sheet's fatura block holds; overflowDuplicatas() prints the rest. */
const shownDuplicatas = (s: Sheet, v: DanfeView) => v.duplicatas.slice(0, s.maxDupRows * DUP_PER_ROW);

export function cobrancaHeight(s: Sheet, v: DanfeView): number {
  if (!v.fatura && !v.duplicatas.length) return 0;
  return TITLE_H + (v.fatura ? ROW : 0) + Math.ceil(shownDuplicatas(s, v).length / DUP_PER_ROW) * ROW;
}

/** Duplicatas beyond the block's rows, as text for the additional data ("" when they all fit). */
export function overflowDuplicatas(s: Sheet, v: DanfeView): string {
  const rest = v.duplicatas.slice(s.maxDupRows * DUP_PER_ROW);
  if (!rest.length) return '';
  return `Duplicatas (continuação): ${rest.map((d) => `Nº ${d.numero} venc. ${formatDate(d.vencimento)} R$ ${formatMoney(d.valor)}`).join('; ')}.`;
}

export function cobranca(doc: Pdf, s: Sheet, v: DanfeView, y: number): number {
  const { m: M, w: W } = s;
  if (!v.fatura && !v.duplicatas.length) return y;
  title(doc, M, y + 2, 'Fatura / Duplicatas');
  y += TITLE_H;
  if (v.fatura) {
    const f = v.fatura;
    box(doc, M, y, W, ROW, 'Fatura', `Número ${f.numero}   Valor original R$ ${formatMoney(f.valorOriginal)}   Desconto R$ ${formatMoney(f.valorDesconto)}   Valor líquido R$ ${formatMoney(f.valorLiquido)}`);
    y += ROW;
  }
  const cw = W / DUP_PER_ROW;
  const shown = shownDuplicatas(s, v);
  shown.forEach((d, i) => {
    const yy = y + Math.floor(i / DUP_PER_ROW) * ROW;
    box(doc, M + (i % DUP_PER_ROW) * cw, yy, cw, ROW, `Nº ${d.numero}  Venc. ${formatDate(d.vencimento)}`, `R$ ${formatMoney(d.valor)}`, 'right');
  });
  return y + Math.ceil(shown.length / DUP_PER_ROW) * ROW;
}
