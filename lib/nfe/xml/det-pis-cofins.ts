import type { PisCofins } from '../types.js';
import { el, leaf, type XmlNode } from '../../xml/writer.js';
import { moneyOf, qty, rate } from './format.js';

/**
 * PIS (Q01) and COFINS (S01), children of imposto (M01): the two groups have the same shape and
 * differ only in tag names, so one emitter serves both.
 *   CST 01, 02 → Aliq (vBC, p, v)            CST 03 → Qtde (qBCProd, vAliqProd, v)
 *   CST 04-09 → NT (CST only)                other CSTs (49-99) → Outr (rate or unit pair, v)
 */
type Tax = 'PIS' | 'COFINS';

const RATE_CSTS = new Set(['01', '02']);
const UNIT_CSTS = new Set(['03']);
const NT_CSTS = new Set(['04', '05', '06', '07', '08', '09']);

function pair(tax: Tax, g: PisCofins): XmlNode[] {
  return g.quantidadeVendida !== undefined
    ? [leaf('qBCProd', qty(g.quantidadeVendida)), leaf('vAliqProd', qty(g.valorAliquotaUnidade ?? 0))]
    : [leaf('vBC', moneyOf(g.baseCalculo ?? 0)), leaf(`p${tax}`, rate(g.aliquota ?? 0))];
}

export function buildPisCofins(tax: Tax, g: PisCofins): XmlNode {
  const cst = leaf('CST', g.cst);
  const value = leaf(`v${tax}`, moneyOf(g.valor ?? 0));
  let group: XmlNode;
  if (NT_CSTS.has(g.cst)) group = el(`${tax}NT`, [cst]);
  else if (RATE_CSTS.has(g.cst)) group = el(`${tax}Aliq`, [cst, ...pair(tax, { ...g, quantidadeVendida: undefined }), value]);
  else if (UNIT_CSTS.has(g.cst)) group = el(`${tax}Qtde`, [cst, ...pair(tax, { ...g, quantidadeVendida: g.quantidadeVendida ?? 0 }), value]);
  else group = el(`${tax}Outr`, [cst, ...pair(tax, g), value]);
  return el(tax, [group]);
}

export const buildPis = (g: PisCofins): XmlNode => buildPisCofins('PIS', g);
export const buildCofins = (g: PisCofins): XmlNode => buildPisCofins('COFINS', g);
