import type { NoteTotals } from '../types.js';
import { el, leaf, type XmlNode } from '../../xml/writer.js';
import { money, scaled4To2 } from './format.js';

/**
 * ICMSTot: W02, child of total (W01). Every value was computed by lib/nfe/totals.ts (never taken
 * from the request). Fields the API has no source for (vFCPSTRet, vII, vIPIDevol) are 0.
 * The partilha totals (vFCPUFDest, vICMSUFDest, vICMSUFRemet) only when an item carries ICMSUFDest (NT 2015.003).
 * Monofasic quantities/values (W06a-W06e) only when a fuel item carries them. vTotTrib (W16a)
 * only when the issuer enables the approximate-tax display.
 */
export function buildIcmsTot(t: NoteTotals, withTotTrib: boolean): XmlNode {
  const mono = t.qBCMono > 0n || t.vICMSMono > 0n;
  const monoRet = t.qBCMonoRet > 0n || t.vICMSMonoRet > 0n;
  return el('ICMSTot', [
    leaf('vBC', money(t.vBC)),
    leaf('vICMS', money(t.vICMS)),
    leaf('vICMSDeson', money(t.vICMSDeson)),
    t.icmsUfDest && leaf('vFCPUFDest', money(t.icmsUfDest.vFCPUFDest)),
    t.icmsUfDest && leaf('vICMSUFDest', money(t.icmsUfDest.vICMSUFDest)),
    t.icmsUfDest && leaf('vICMSUFRemet', money(t.icmsUfDest.vICMSUFRemet)),
    leaf('vFCP', money(t.vFCP)),
    leaf('vBCST', money(t.vBCST)),
    leaf('vST', money(t.vST)),
    leaf('vFCPST', money(t.vFCPST)),
    leaf('vFCPSTRet', '0.00'),
    mono && leaf('qBCMono', scaled4To2(t.qBCMono)),
    mono && leaf('vICMSMono', money(t.vICMSMono)),
    monoRet && leaf('qBCMonoRet', scaled4To2(t.qBCMonoRet)),
    monoRet && leaf('vICMSMonoRet', money(t.vICMSMonoRet)),
    leaf('vProd', money(t.vProd)),
    leaf('vFrete', money(t.vFrete)),
    leaf('vSeg', money(t.vSeg)),
    leaf('vDesc', money(t.vDesc)),
    leaf('vII', '0.00'),
    leaf('vIPI', money(t.vIPI)),
    leaf('vIPIDevol', '0.00'),
    leaf('vPIS', money(t.vPIS)),
    leaf('vCOFINS', money(t.vCOFINS)),
    leaf('vOutro', money(t.vOutro)),
    leaf('vNF', money(t.vNF)),
    withTotTrib && leaf('vTotTrib', money(t.vTotTrib)),
  ]);
}

/**
 * IBSCBSTot: W34, child of total (W01), type TIBSCBSMonoTot (NT 2025.002). Deferral, returned
 * tax and presumed credit are not in the API, so they are 0.
 */
export function buildIbsCbsTot(t: NonNullable<NoteTotals['ibsCbs']>): XmlNode {
  const zero = '0.00';
  return el('IBSCBSTot', [
    leaf('vBCIBSCBS', money(t.vBCIBSCBS)),
    el('gIBS', [
      el('gIBSUF', [leaf('vDif', zero), leaf('vDevTrib', zero), leaf('vIBSUF', money(t.vIBSUF))]),
      el('gIBSMun', [leaf('vDif', zero), leaf('vDevTrib', zero), leaf('vIBSMun', money(t.vIBSMun))]),
      leaf('vIBS', money(t.vIBS)),
      leaf('vCredPres', zero),
      leaf('vCredPresCondSus', zero),
    ]),
    el('gCBS', [
      leaf('vDif', zero), leaf('vDevTrib', zero), leaf('vCBS', money(t.vCBS)),
      leaf('vCredPres', zero), leaf('vCredPresCondSus', zero),
    ]),
  ]);
}

/** total: W01, child of infNFe (A01). */
export function buildTotal(t: NoteTotals, withTotTrib: boolean): XmlNode {
  return el('total', [buildIcmsTot(t, withTotTrib), t.ibsCbs && buildIbsCbsTot(t.ibsCbs)]);
}
