import type { Cobranca } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import { moneyOf } from './format.js';

/** cobr: Y01, child of infNFe (A01): fat (Y02) and up to 120 dup (Y07). NF-e only. */
export function buildCobr(c: Cobranca | undefined): XmlNode | undefined {
  if (!c || (!c.fatura && !c.duplicatas?.length)) return undefined;
  const f = c.fatura;
  return el('cobr', [
    f && el('fat', [
      leaf('nFat', f.numero),
      leaf('vOrig', moneyOf(f.valorOriginal)),
      leaf('vDesc', moneyOf(f.valorDesconto ?? 0)),
      leaf('vLiq', moneyOf(f.valorLiquido)),
    ]),
    ...(c.duplicatas ?? []).map((d) => el('dup', [opt('nDup', d.numero), leaf('dVenc', d.vencimento), leaf('vDup', moneyOf(d.valor))])),
  ]);
}
