/**
 * The middle and bottom blocks of the NF-e DANFE (MOC 4.00 Anexo II): tax totals (with FCP, FCP-ST
 * and, when the note has the ICMSUFDest group, the DIFAL boxes of NT 2015.003), transport with
 * every volume, additional data, and the diagonal marks drawn first on each sheet so the grids and
 * values print over them.
 */
import type { DanfeView } from './view-model.js';
import { formatCnpjCpf, formatDateTime, formatDecimal, formatMoney, MOD_FRETE } from './format.js';
import { box, boxFit, diagonalMark, title, type Pdf } from './pdf.js';
import { volumeLines } from './volumes.js';
import { cartaCorrecaoText, impostoRows } from './nfe-fields.js';
import { ADIC_H, ROW, TITLE_H, type Sheet } from './nfe-sheet.js';
import { overflowDuplicatas } from './nfe-pdf-head.js';


export const IMPOSTO_H = TITLE_H + 2 * ROW;

export function imposto(doc: Pdf, s: Sheet, v: DanfeView, y: number): number {
  title(doc, s.m, y + 2, 'Cálculo do imposto');
  y += TITLE_H;
  for (const row of impostoRows(v)) {
    const cw = s.w / row.length;
    row.forEach(([label, value], i) => box(doc, s.m + i * cw, y, cw, ROW, label, formatMoney(value || '0.00'), 'right'));
    y += ROW;
  }
  return y;
}

/** Volume lines: as many as the sheet holds (Sheet.maxVolumeRows; the rest go to the additional data, never dropped), and the total. */
function volumeRowCount(s: Sheet, v: DanfeView): number {
  const { lines, total } = volumeLines(v.transporte.volumes);
  return Math.max(1, Math.min(lines.length, s.maxVolumeRows)) + (total ? 1 : 0);
}

export function transporteHeight(s: Sheet, v: DanfeView): number {
  return TITLE_H + (2 + volumeRowCount(s, v)) * ROW;
}

/** Volumes beyond the block's rows, as text for the additional data ("" when they all fit). */
export function overflowVolumes(s: Sheet, v: DanfeView): string {
  const rest = v.transporte.volumes.slice(s.maxVolumeRows);
  if (!rest.length) return '';
  return `Volumes (continuação): ${rest.map((vol) => [vol.quantidade && `${vol.quantidade}`, vol.especie, vol.marca, vol.numeracao && `nº ${vol.numeracao}`,
    vol.pesoBruto && `P.B. ${formatDecimal(vol.pesoBruto, 3)}`, vol.pesoLiquido && `P.L. ${formatDecimal(vol.pesoLiquido, 3)}`].filter(Boolean).join(' ')).join('; ')}.`;
}

export function transporte(doc: Pdf, s: Sheet, v: DanfeView, y: number): number {
  const { m: M, w: W } = s;
  const tr = v.transporte;
  const t = tr.transportador;
  title(doc, M, y + 2, 'Transportador / Volumes transportados');
  y += TITLE_H;
  const wFrete = 130;
  const r1: [string, string, number][] = [['Nome / Razão social', t?.nome ?? '', W - wFrete - 269], ['Frete', MOD_FRETE[tr.modFrete] ?? tr.modFrete, wFrete], ['Código ANTT', tr.veiculo?.rntc ?? '', 60], ['Placa do veículo', tr.veiculo?.placa ?? '', 60], ['UF', tr.veiculo?.uf ?? '', 25], ['CNPJ / CPF', formatCnpjCpf(t?.documento), 124]];
  const r2: [string, string, number][] = [['Endereço', t?.endereco ?? '', W - 269], ['Município', t?.municipio ?? '', 120], ['UF', t?.uf ?? '', 25], ['Inscrição estadual', t?.ie ?? '', 124]];
  const { lines, total } = volumeLines(tr.volumes);
  const shown = lines.slice(0, s.maxVolumeRows);
  const volRows = [...(shown.length ? shown : [null]), ...(total ? [total] : [])].map((vol): [string, string, number][] => [
    ['Quantidade', vol?.quantidade ?? '', 70], ['Espécie', vol?.especie ?? '', 100], ['Marca', vol?.marca ?? '', 100], ['Numeração', vol?.numeracao ?? '', W - 459],
    ['Peso bruto', formatDecimal(vol?.pesoBruto, 3), 95], ['Peso líquido', formatDecimal(vol?.pesoLiquido, 3), 94],
  ]);
  for (const row of [r1, r2, ...volRows]) {
    let x = M;
    for (const [label, value, w] of row) {
      if (label === 'Frete') boxFit(doc, x, y, w, ROW, label, value);
      else box(doc, x, y, w, ROW, label, value);
      x += w;
    }
    y += ROW;
  }
  return y;
}

const ADIC_FONT = 6;
const complementaryWidth = (s: Sheet): number => s.w * 0.65 - 4;

/** Everything the "Informações complementares" box prints: contingency, infCpl, what the blocks could not hold, the CC-e of a reprint. */
export function complementaryText(s: Sheet, v: DanfeView): string {
  const cont = v.contingencia ? `Contingência desde ${formatDateTime(v.contingencia.dhCont)}: ${v.contingencia.xJust}\n` : '';
  const more = [overflowDuplicatas(s, v), overflowVolumes(s, v), cartaCorrecaoText(v)].filter(Boolean).map((t) => `\n${t}`).join('');
  return cont + v.infCpl + more;
}

/** Whether the complementary text needs a continuation sheet (MOC: continued on a following sheet). */
export function complementaryOverflows(doc: Pdf, s: Sheet, v: DanfeView): boolean {
  doc.font('Helvetica').fontSize(ADIC_FONT);
  return doc.heightOfString(complementaryText(s, v), { width: complementaryWidth(s) }) > ADIC_H - 18;
}

/** The additional data on the first sheet; `continuedOn` names the sheet that prints the complementary text whole. */
export function adicionais(doc: Pdf, s: Sheet, v: DanfeView, y: number, continuedOn: number | null): void {
  const { m: M, w: W } = s;
  title(doc, M, y + 2, 'Dados adicionais');
  y += TITLE_H;
  const wl = W * 0.65;
  const text = complementaryText(s, v);
  box(doc, M, y, wl, ADIC_H - TITLE_H, 'Informações complementares', '');
  doc.font('Helvetica').fontSize(ADIC_FONT).text(continuedOn ? `(CONTINUA NA FOLHA ${continuedOn}) ${text}` : text, M + 2, y + 8, { width: complementaryWidth(s), height: ADIC_H - 18, ellipsis: true });
  box(doc, M + wl, y, W - wl, ADIC_H - TITLE_H, 'Reservado ao fisco', '');
  doc.font('Helvetica').fontSize(6).text(v.infAdFisco, M + wl + 2, y + 8, { width: W - wl - 4, height: ADIC_H - 18, ellipsis: true });
}

/** The continuation sheet's body: the complementary text whole, below the header. */
export function adicionaisContinuacao(doc: Pdf, s: Sheet, v: DanfeView, y: number): void {
  title(doc, s.m, y + 2, 'Dados adicionais (continuação)');
  y += TITLE_H;
  box(doc, s.m, y, s.w, s.pageH - s.m - y, 'Informações complementares', '');
  doc.font('Helvetica').fontSize(ADIC_FONT).fillColor('#000').text(complementaryText(s, v), s.m + 2, y + 8, { width: s.w - 4, height: s.pageH - s.m - y - 10, ellipsis: true });
}

/** The diagonal marks; drawn before anything else on the sheet, so they sit behind grids and values. */
export function marks(doc: Pdf, s: Sheet, v: DanfeView): void {
  const cx = s.pageW / 2;
  if (v.marcas.includes('CANCELADA')) diagonalMark(doc, 'CANCELADA', null, cx, s.pageH * 0.45, s.pageW, 72);
  if (v.marcas.includes('SEM_VALOR_FISCAL')) diagonalMark(doc, 'SEM VALOR FISCAL', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO', cx, s.pageH * (v.marcas.includes('CANCELADA') ? 0.65 : 0.5), s.pageW, 56);
}
