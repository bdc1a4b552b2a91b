import type { Ambiente } from '../../issuer/types.js';
import type { CheckedItem, Model } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import { money } from './format.js';
import { buildProd } from './det-prod.js';
import { buildIcms } from './det-icms.js';
import { buildIpi } from './det-ipi.js';
import { buildCofins, buildPis } from './det-pis-cofins.js';
import { buildIbsCbs } from './det-ibscbs.js';
import { buildIcmsUfDest } from './det-icms-uf-dest.js';

/**
 * imposto: M01, child of det (H01). Goods branch of the choice: ICMS, IPI (NF-e only), then PIS,
 * COFINS, ICMSUFDest (the partilha, NA01) and IBSCBS, after vTotTrib (M02), the item's approximate
 * tax, written only when the issuer enables it (computed in lib/nfe/approximate-tax.ts).
 */
export function buildImposto(item: CheckedItem): XmlNode {
  return el('imposto', [
    item.approximateTax && leaf('vTotTrib', money(item.approximateTax.total)),
    buildIcms(item.icms),
    item.ipi && buildIpi(item.ipi),
    item.pis && buildPis(item.pis),
    item.cofins && buildCofins(item.cofins),
    item.icmsUfDestResolved && buildIcmsUfDest(item.icmsUfDestResolved),
    item.ibsCbsResolved && buildIbsCbs(item.ibsCbsResolved),
  ]);
}

/** det: H01, child of infNFe (A01), attribute nItem (H02); prod, imposto, infAdProd (V01). */
export function buildDet(item: CheckedItem, model: Model, tpAmb: Ambiente): XmlNode {
  return el('det', [
    buildProd(item, model, tpAmb),
    buildImposto(item),
    opt('infAdProd', item.informacoesAdicionais),
  ], { nItem: String(item.nItem) });
}
