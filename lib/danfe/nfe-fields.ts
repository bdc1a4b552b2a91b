/**
 * Which optional DANFE fields a note shows, shared by the PDF and HTML renderers: the tax total
 * boxes (FCP and FCP-ST always; the DIFAL boxes of EC 87/2015 only when the note has the
 * ICMSUFDest totals) and whether the items grid needs a "V. DESC." column.
 */
import type { DanfeView } from './view-model.js';
import { formatDateTime } from './format.js';

/** The CC-e line of a reprint's complementary information ("" without one). */
export function cartaCorrecaoText(v: DanfeView): string {
  const c = v.cartaCorrecao;
  if (!c) return '';
  return `CARTA DE CORREÇÃO Nº ${c.sequencia} (protocolo ${c.protocolo}, ${formatDateTime(c.dhRegEvento)}): ${c.correcao}`;
}

export const hasDiscount = (v: DanfeView): boolean => v.items.some((i) => /[1-9]/.test(i.valorDesconto));

const hasDifal = (v: DanfeView): boolean => v.totais.vFCPUFDest !== '' || v.totais.vICMSUFDest !== '' || v.totais.vICMSUFRemet !== '';

/** The tax totals as the two rows of boxes (label, value); DIFAL boxes only for a note that has them. */
export function impostoRows(v: DanfeView): [string, string][][] {
  const t = v.totais;
  const difal = hasDifal(v);
  return [
    [
      ['Base de cálc. do ICMS', t.vBC], ['Valor do ICMS', t.vICMS], ['Base de cálc. ICMS S.T.', t.vBCST], ['Valor do ICMS subst.', t.vST],
      ['Valor do FCP', t.vFCP], ['Valor do FCP S.T.', t.vFCPST], ['V. imp. importação', t.vII],
      ...(difal ? [['V. ICMS UF remet.', t.vICMSUFRemet], ['V. FCP UF dest.', t.vFCPUFDest]] as [string, string][] : []),
      ['Valor total dos produtos', t.vProd],
    ],
    [
      ['Valor do frete', t.vFrete], ['Valor do seguro', t.vSeg], ['Desconto', t.vDesc], ['Outras despesas', t.vOutro], ['Valor total do IPI', t.vIPI],
      ['V. ICMS desonerado', t.vICMSDeson], ['V. total tributos', t.vTotTrib],
      ...(difal ? [['V. ICMS UF dest.', t.vICMSUFDest]] as [string, string][] : []),
      ['Valor total da nota', t.vNF],
    ],
  ];
}
