import { el, leaf, type XmlNode } from '../../xml/writer.js';
import type { CheckedDps } from '../types.js';
import { money, percent } from './format.js';

/**
 * valores (TCInfoValores), child of infDPS: vServPrest (vServ), vDescCondIncond (vDescIncond,
 * vDescCond), vDedRed (vDR), trib (tribMun, tribFed, totTrib). Order per XSD sequence.
 */
export function buildValores(dps: CheckedDps): XmlNode {
  const v = dps.valores;
  const hasDesc = v.descontoIncondicionado !== undefined || v.descontoCondicionado !== undefined;
  return el('valores', [
    el('vServPrest', [leaf('vServ', money(v.valorServicos))]),
    hasDesc && el('vDescCondIncond', [
      v.descontoIncondicionado !== undefined && leaf('vDescIncond', money(v.descontoIncondicionado)),
      v.descontoCondicionado !== undefined && leaf('vDescCond', money(v.descontoCondicionado)),
    ]),
    v.valorDeducoes !== undefined && el('vDedRed', [leaf('vDR', money(v.valorDeducoes))]),
    el('trib', [buildTribMun(dps.tribMun), buildTribFed(dps.tribFed), buildTotTrib(dps.totTrib)]),
  ]);
}

/** tribMun (TCTribMunicipal): tribISSQN, tpRetISSQN, pAliq (TSDec1V2). */
export function buildTribMun(t: CheckedDps['tribMun']): XmlNode {
  return el('tribMun', [
    leaf('tribISSQN', t.tribISSQN),
    leaf('tpRetISSQN', t.tpRetISSQN),
    t.aliquotaIss !== undefined && leaf('pAliq', percent(t.aliquotaIss)),
  ]);
}

/** tribFed (TCTribFederal): piscofins (CST, tpRetPisCofins), vRetCP, vRetIRRF, vRetCSLL. */
export function buildTribFed(t: CheckedDps['tribFed']): XmlNode | undefined {
  if (!t) return undefined;
  return el('tribFed', [
    t.piscofins && el('piscofins', [
      leaf('CST', t.piscofins.cst),
      t.piscofins.tpRetPisCofins !== undefined && leaf('tpRetPisCofins', t.piscofins.tpRetPisCofins),
    ]),
    t.inss !== undefined && leaf('vRetCP', money(t.inss)),
    t.irrf !== undefined && leaf('vRetIRRF', money(t.irrf)),
    t.csll !== undefined && leaf('vRetCSLL', money(t.csll)),
  ]);
}

/** totTrib (TCTribTotal, a choice): pTotTribSN (TSDec2V2) or indTotTrib 0. */
export function buildTotTrib(t: CheckedDps['totTrib']): XmlNode {
  return el('totTrib', ['pTotTribSN' in t ? leaf('pTotTribSN', percent(t.pTotTribSN)) : leaf('indTotTrib', t.indTotTrib)]);
}
