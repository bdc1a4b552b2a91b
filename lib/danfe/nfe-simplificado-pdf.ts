/**
 * DANFE Simplificado – Etiqueta (tpImp 3; NT 2020.004, v1.10), as a 100 × 150 mm label (the NT
 * asks for at least 55 mm of width). Its mandatory fields: the access key with its Code-128C
 * barcode at the top; the authorization protocol with date and time; the note's type of operation,
 * number, series and emission date; name, CNPJ/CPF, IE and UF of the issuer and of the recipient.
 * The total value (no longer mandatory since v1.10) and the items, as far as the label holds them,
 * are printed as well; the items that do not fit are counted, since the full DANFE stays available.
 * Fonts are never below 6 pt and the field titles are bold capitals (NT 2020.004, 02.3).
 */
import type { DanfeParty, DanfeView } from './view-model.js';
import { formatCnpjCpf, formatDate, formatDateTime, formatDecimal, formatMoney, formatNumber, formatSerie, groupAccessKey } from './format.js';
import { bars, code128 } from './barcode.js';
import { diagonalMark, newPdf, pdfBuffer, type Pdf, type PdfOptions } from './pdf.js';

const MM = 72 / 25.4;
export const LABEL_SIZE: [number, number] = [100 * MM, 150 * MM];
const M = 8;

/** A bold capital title and its value, one line each; returns the next y. */
function field(doc: Pdf, x: number, y: number, w: number, label: string, value: string): number {
  doc.font('Helvetica-Bold').fontSize(6).fillColor('#000').text(label.toUpperCase(), x, y, { width: w, lineBreak: false, ellipsis: true });
  doc.font('Helvetica').fontSize(7.5).text(value, x, y + 7, { width: w, height: 9, ellipsis: true });
  return y + 18;
}

function party(doc: Pdf, x: number, y: number, w: number, heading: string, p: DanfeParty | null): number {
  doc.lineWidth(0.5).moveTo(x, y).lineTo(x + w, y).stroke();
  doc.font('Helvetica-Bold').fontSize(7).text(heading, x, y + 3);
  y = field(doc, x, y + 12, w, 'Nome / Razão social', p?.nome ?? '');
  const half = w / 2;
  field(doc, x, y, half, 'CNPJ / CPF', formatCnpjCpf(p?.documento));
  field(doc, x + half, y, half * 0.65, 'Inscrição estadual', p?.ie ?? '');
  field(doc, x + half + half * 0.65, y, half * 0.35, 'UF', p?.endereco?.uf ?? '');
  return y + 20;
}

export async function renderNfeSimplificadoPdf(v: DanfeView, o: PdfOptions = {}): Promise<Buffer> {
  const [pw, ph] = LABEL_SIZE;
  const w = pw - 2 * M;
  const doc = newPdf(`DANFE Simplificado ${v.accessKey}`, v.dhEmi, LABEL_SIZE, o);
  doc.addPage({ size: LABEL_SIZE, margin: 0 });
  if (v.marcas.includes('CANCELADA')) diagonalMark(doc, 'CANCELADA', null, pw / 2, ph * 0.45, pw, 36);
  if (v.marcas.includes('SEM_VALOR_FISCAL')) diagonalMark(doc, 'SEM VALOR FISCAL', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO', pw / 2, ph * 0.62, pw, 24);

  let y = M;
  const code = code128(v.accessKey);
  // Quiet zones either side (MOC, DANFE e Código de Barras: "margem clara").
  const quiet = 10;
  const module = (w - 2 * quiet) / code.modules;
  for (const b of bars(code)) doc.rect(M + quiet + b.x * module, y, b.w * module, 34).fill('#000');
  y += 37;
  doc.font('Helvetica-Bold').fontSize(7).fillColor('#000').text(groupAccessKey(v.accessKey), M, y, { width: w, align: 'center' });
  y += 11;
  doc.fontSize(9).text('DANFE SIMPLIFICADO - ETIQUETA', M, y, { width: w, align: 'center' });
  y += 13;
  const prot = v.protocolo ? `${v.protocolo.numero} - ${formatDateTime(v.protocolo.dhRecbto)}` : 'EMITIDA EM CONTINGÊNCIA - pendente de autorização';
  y = field(doc, M, y, w, 'Protocolo de autorização de uso', prot);
  const q = w / 4;
  field(doc, M, y, q, 'Tipo', v.tpNF === '0' ? '0 - ENTRADA' : '1 - SAÍDA');
  field(doc, M + q, y, q * 1.2, 'Número', formatNumber(v.numero));
  field(doc, M + 2.2 * q, y, q * 0.6, 'Série', formatSerie(v.serie));
  field(doc, M + 2.8 * q, y, q * 1.2, 'Emissão', formatDate(v.dhEmi));
  y += 20;
  y = party(doc, M, y, w, 'EMITENTE', { ...v.emitente });
  y = party(doc, M, y, w, 'DESTINATÁRIO', v.destinatario);
  doc.lineWidth(0.5).moveTo(M, y).lineTo(M + w, y).stroke();
  y = field(doc, M, y + 3, w, 'Valor total da NF-e', `R$ ${formatMoney(v.totais.vNF)}`);

  doc.lineWidth(0.5).moveTo(M, y).lineTo(M + w, y).stroke();
  doc.font('Helvetica-Bold').fontSize(6).text('ITENS (CÓDIGO · DESCRIÇÃO · QUANT. · VALOR)', M, y + 3, { width: w });
  y += 12;
  const bottom = ph - M - 8;
  doc.font('Helvetica').fontSize(6);
  let shown = 0;
  for (const i of v.items) {
    if (y + 8 > bottom) break;
    doc.text(`${i.codigo} · ${i.descricao} · ${formatDecimal(i.quantidade, 4)} ${i.unidade} · ${formatMoney(i.valorTotal)}`, M, y, { width: w, height: 7, ellipsis: true });
    y += 8;
    shown++;
  }
  const rest = v.items.length - shown;
  if (rest > 0) doc.font('Helvetica-Bold').text(`+ ${rest} ${rest === 1 ? 'item' : 'itens'}: consulte a NF-e pela chave de acesso`, M, bottom, { width: w, lineBreak: false });
  return pdfBuffer(doc);
}
