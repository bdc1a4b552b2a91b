import type { ResolvedIbsCbs, ResolvedRate } from '../types.js';
import { el, leaf, type XmlNode } from '../../xml/writer.js';
import { money } from './format.js';

/**
 * CSTs of IBS/CBS whose classification carries no gIBSCBS group (NT 2025.002, table of CST:
 * 400 isenção, 410 imunidade e não incidência). Every other CST of the API writes gIBSCBS.
 */
export const CST_WITHOUT_GROUP: ReadonlySet<string> = new Set(['400', '410']);

/**
 * One rate block (gIBSUF, gIBSMun, gCBS) of TCIBS: the full rate, then gRed (UB16/UB24/UB43:
 * pRedAliq and the effective rate pAliqEfet) only when there is a reduction, then the value.
 */
function rateBlock(group: string, suffix: 'IBSUF' | 'IBSMun' | 'CBS', r: ResolvedRate): XmlNode {
  const reduced = r.pRedAliq !== undefined && Number(r.pRedAliq) > 0;
  return el(group, [
    leaf(`p${suffix}`, reduced ? (r.pNominal ?? r.p) : r.p),
    reduced && el('gRed', [leaf('pRedAliq', r.pRedAliq!), leaf('pAliqEfet', r.p)]),
    leaf(`v${suffix}`, money(r.v)),
  ]);
}

/**
 * IBSCBS: UB12, child of imposto (M01), type TTribNFe (DFeTiposBasicos_v1.00.xsd, NT 2025.002):
 * CST, cClassTrib, then gIBSCBS (UB15: vBC, gIBSUF, gIBSMun, vIBS, gCBS).
 */
export function buildIbsCbs(t: ResolvedIbsCbs): XmlNode {
  return el('IBSCBS', [
    leaf('CST', t.cst),
    leaf('cClassTrib', t.cClassTrib),
    !CST_WITHOUT_GROUP.has(t.cst) && el('gIBSCBS', [
      leaf('vBC', money(t.vBC)),
      rateBlock('gIBSUF', 'IBSUF', t.ibsUf),
      rateBlock('gIBSMun', 'IBSMun', t.ibsMun),
      leaf('vIBS', money(t.vIbs)),
      rateBlock('gCBS', 'CBS', t.cbs),
    ]),
  ]);
}
