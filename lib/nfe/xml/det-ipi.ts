import type { Ipi } from '../types.js';
import { el, leaf, type XmlNode } from '../../xml/writer.js';
import { dec4, moneyOf, qty, rate } from './format.js';

/** IPI CSTs taxed (IPITrib, O07); every other CST is not taxed (IPINT, O08). TIpi in the XSD. */
const TAXED = new Set(['00', '49', '50', '99']);

/**
 * IPI: O01, child of imposto (M01). IPITrib carries either the rate pair (vBC+pIPI) or the unit
 * pair (qUnid+vUnid), never both (rule TRIBUTO_GRUPOS_MISTURADOS upstream), then vIPI.
 */
export function buildIpi(ipi: Ipi): XmlNode {
  if (!TAXED.has(ipi.cst)) {
    return el('IPI', [leaf('cEnq', ipi.cEnq), el('IPINT', [leaf('CST', ipi.cst)])]);
  }
  const byUnit = ipi.quantidadeUnidadeTributavel !== undefined;
  return el('IPI', [
    leaf('cEnq', ipi.cEnq),
    el('IPITrib', [
      leaf('CST', ipi.cst),
      ...(byUnit
        ? [leaf('qUnid', qty(ipi.quantidadeUnidadeTributavel!)), leaf('vUnid', dec4(ipi.valorUnidadeTributavel ?? 0))]
        : [leaf('vBC', moneyOf(ipi.baseCalculo ?? 0)), leaf('pIPI', rate(ipi.aliquota ?? 0))]),
      leaf('vIPI', moneyOf(ipi.valor ?? 0)),
    ]),
  ]);
}

/** True when the item's IPI enters vIPI of the total (IPITrib). */
export const ipiIsTaxed = (ipi: Ipi): boolean => TAXED.has(ipi.cst);
