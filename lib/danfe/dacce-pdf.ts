/**
 * DACCe as a one-page A4 PDF: issuer and the corrected note's key (with its Code-128C barcode, as
 * on the DANFE), the event and its registration, the recipient, the correction text and the
 * conditions of use. A homologation event carries the SEM VALOR FISCAL mark, drawn first.
 * Deterministic: the document's date is the event's (lib/danfe/pdf.ts).
 */
import type { DacceView } from './dacce-view.js';
import { formatCnpjCpf, formatDate, formatDateTime, formatNumber, formatSerie, groupAccessKey } from './format.js';
import { bars, code128 } from './barcode.js';
import { box, diagonalMark, newPdf, pdfBuffer, title, type Pdf, type PdfOptions } from './pdf.js';
import { sheetFor, ROW, TITLE_H } from './nfe-sheet.js';

const HEAD_H = 96;

function header(doc: Pdf, v: DacceView, x: number, y: number, w: number): number {
  const e = v.nota?.emitente;
  const wEmit = w * 0.45;
  doc.lineWidth(0.5).rect(x, y, wEmit, HEAD_H).stroke();
  doc.font('Helvetica-Bold').fontSize(9).text(e?.nome ?? formatCnpjCpf(v.autor), x + 4, y + 8, { width: wEmit - 8, align: 'center', height: 34, ellipsis: true });
  const a = e?.endereco;
  const addr = a ? [`${a.logradouro}, ${a.numero}${a.complemento ? ` ${a.complemento}` : ''}`, `${a.bairro} - ${a.municipio} - ${a.uf}`, `CNPJ/CPF ${formatCnpjCpf(v.autor)}`].join('\n') : `CNPJ/CPF ${formatCnpjCpf(v.autor)}`;
  doc.font('Helvetica').fontSize(7).text(addr, x + 4, y + 44, { width: wEmit - 8, align: 'center', height: HEAD_H - 48, ellipsis: true });
  const xr = x + wEmit;
  const wr = w - wEmit;
  doc.rect(xr, y, wr, HEAD_H).stroke();
  doc.font('Helvetica-Bold').fontSize(12).text('DACCe', xr, y + 5, { width: wr, align: 'center' });
  doc.font('Helvetica').fontSize(7).text('Documento Auxiliar da Carta de Correção Eletrônica', xr, y + 20, { width: wr, align: 'center' });
  const code = code128(v.accessKey);
  const bw = wr - 20;
  const module = bw / code.modules;
  for (const b of bars(code)) doc.rect(xr + 10 + b.x * module, y + 32, b.w * module, 34).fill('#000');
  box(doc, xr, y + HEAD_H - 26, wr, 26, 'Chave de acesso da NF-e', groupAccessKey(v.accessKey), 'center', 8);
  return y + HEAD_H;
}

function row(doc: Pdf, x: number, y: number, cells: [string, string, number][]): number {
  let cx = x;
  for (const [label, value, w] of cells) { box(doc, cx, y, w, ROW, label, value); cx += w; }
  return y + ROW;
}

function textBlock(doc: Pdf, x: number, y: number, w: number, h: number, label: string, value: string, size: number): number {
  title(doc, x, y + 2, label);
  y += TITLE_H;
  doc.lineWidth(0.5).rect(x, y, w, h).stroke();
  doc.font('Helvetica').fontSize(size).fillColor('#000').text(value, x + 4, y + 4, { width: w - 8, height: h - 8, ellipsis: true });
  return y + h;
}

export async function renderDaccePdf(v: DacceView, o: PdfOptions = {}): Promise<Buffer> {
  const s = sheetFor(1);
  const doc = newPdf(`DACCe ${v.accessKey} ${v.sequencia}`, v.dhEvento, s.size, o);
  doc.addPage({ size: s.size, margin: 0 });
  const { m: x, w } = s;
  if (v.tpAmb === 2) diagonalMark(doc, 'SEM VALOR FISCAL', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO', s.pageW / 2, s.pageH * 0.5, s.pageW, 56);
  doc.font('Helvetica-Bold').fontSize(11).fillColor('#000').text('CARTA DE CORREÇÃO ELETRÔNICA', x, x, { width: w, align: 'center' });
  let y = header(doc, v, x, x + 16, w);
  const q = w / 4;
  title(doc, x, y + 2, 'Nota fiscal corrigida');
  y = row(doc, x, y + TITLE_H, [['Modelo', v.modelo, q], ['Série', formatSerie(v.serie), q], ['Número', formatNumber(v.numero), q], ['Data de emissão', formatDate(v.nota?.dhEmi), w - 3 * q]]);
  title(doc, x, y + 2, 'Evento');
  const reg = v.registro;
  y = row(doc, x, y + TITLE_H, [['Órgão', v.cOrgao, q / 2], ['Ambiente', v.tpAmb === 1 ? '1 - Produção' : '2 - Homologação', q], ['Data e hora do evento', formatDateTime(v.dhEvento), q], ['Sequência', String(v.sequencia), q / 2], ['Tipo', '110110 - Carta de Correção', w - 3 * q]]);
  y = row(doc, x, y, [['Protocolo de registro', reg?.protocolo ?? '', q], ['Data e hora do registro', formatDateTime(reg?.dhRegEvento), q], ['Situação', reg ? `${reg.cStat} - ${reg.xMotivo}` : '', w - 2 * q]]);
  const d = v.nota?.destinatario;
  title(doc, x, y + 2, 'Destinatário');
  y = row(doc, x, y + TITLE_H, [['Nome / Razão social', d?.nome ?? '', w - 2 * q], ['CNPJ / CPF', formatCnpjCpf(d?.documento), q], ['UF', d?.endereco?.uf ?? '', q]]);
  y = textBlock(doc, x, y, w, 190, 'Correção', v.correcao, 9);
  textBlock(doc, x, y, w, 110, 'Condições de uso', v.condicaoUso, 7);
  return pdfBuffer(doc);
}
