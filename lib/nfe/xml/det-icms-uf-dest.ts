import type { ResolvedIcmsUfDest } from '../types.js';
import { el, leaf, type XmlNode } from '../../xml/writer.js';
import { money } from './format.js';

/**
 * ICMSUFDest: NA01, child of imposto (M01), after COFINS and before IS/IBSCBS (NT 2015.003;
 * leiauteNFe_v4.00.xsd sequence). The FCP fields (vBCFCPUFDest, pFCPUFDest, vFCPUFDest) are
 * optional in the XSD and written only when the destination charges FCP on the item. Every value
 * was computed or checked by lib/nfe/rules/icms-uf-dest.ts.
 */
export function buildIcmsUfDest(g: ResolvedIcmsUfDest): XmlNode {
  return el('ICMSUFDest', [
    leaf('vBCUFDest', money(g.vBCUFDest)),
    g.fcp && leaf('vBCFCPUFDest', money(g.fcp.vBCFCPUFDest)),
    g.fcp && leaf('pFCPUFDest', g.fcp.pFCPUFDest),
    leaf('pICMSUFDest', g.pICMSUFDest),
    leaf('pICMSInter', g.pICMSInter),
    leaf('pICMSInterPart', g.pICMSInterPart),
    g.fcp && leaf('vFCPUFDest', money(g.fcp.vFCPUFDest)),
    leaf('vICMSUFDest', money(g.vICMSUFDest)),
    leaf('vICMSUFRemet', money(g.vICMSUFRemet)),
  ]);
}
