import { sum, toScaled } from '../money.js';
import { cents } from './rules/amounts.js';
import { ipiCents } from './rules/pis-cofins-ipi.js';
import type { CheckedItem, CheckedNote, NoteTotals } from './types.js';

/**
 * ICMSTot and IBSCBSTot of the note (API.md, NF-e payload: totals are never sent), in exact
 * integers: each item's values are already rounded to cents, so the totals are plain sums, the
 * way the authority validates them.
 *
 * vNF = vProd − vDesc + vFrete + vSeg + vOutro + vIPI + vST + vFCPST (API.md). Items with
 * indTot 0 stay out of vProd only (MOC 4.00, W07); their other amounts are still summed.
 * With `indDeduzDeson: 1` the item's vICMSDeson is also subtracted (see below).
 * vTotTrib is 0 here: the approximate tax value is the XML side's (issuer setting + NCM tables).
 */
export function computeTotals(note: Pick<CheckedNote, 'items'>): NoteTotals {
  const items = note.items;
  const total = (pick: (item: CheckedItem) => bigint) => sum(items.map(pick));
  const vProd = total((i) => (i.indTot === 1 ? i.valorTotalCents : 0n));
  const vDesc = total((i) => cents(i.desconto));
  const vFrete = total((i) => cents(i.valorFrete));
  const vSeg = total((i) => cents(i.valorSeguro));
  const vOutro = total((i) => cents(i.outrasDespesas));
  const vIPI = total((i) => ipiCents(i.ipi));
  const vST = total((i) => cents(i.icms.vICMSST));
  const vFCPST = total((i) => cents(i.icms.vFCPST));
  // indDeduzDeson 1: the exempted ICMS is deducted from the note total (NT 2023.004, rule of
  // rejection 610); it is the only case where vNF departs from the API.md formula above.
  const deducted = total((i) => (i.icms.indDeduzDeson === 1 ? cents(i.icms.vICMSDeson) : 0n));
  const totals: NoteTotals = {
    vBC: total((i) => cents(i.icms.vBC)),
    vICMS: total((i) => cents(i.icms.vICMS)),
    vICMSDeson: total((i) => cents(i.icms.vICMSDeson)),
    vFCP: total((i) => cents(i.icms.vFCP)),
    vBCST: total((i) => cents(i.icms.vBCST)),
    vST,
    vFCPST,
    qBCMono: total((i) => (i.icms.qBCMono === undefined ? 0n : toScaled(i.icms.qBCMono, 4))),
    vICMSMono: total((i) => cents(i.icms.vICMSMono)),
    qBCMonoRet: total((i) => (i.icms.qBCMonoRet === undefined ? 0n : toScaled(i.icms.qBCMonoRet, 4))),
    vICMSMonoRet: total((i) => cents(i.icms.vICMSMonoRet)),
    vProd, vFrete, vSeg, vDesc, vIPI,
    vPIS: total((i) => cents(i.pis?.valor)),
    vCOFINS: total((i) => cents(i.cofins?.valor)),
    vOutro,
    vNF: vProd - vDesc + vFrete + vSeg + vOutro + vIPI + vST + vFCPST - deducted,
    vTotTrib: 0n,
  };
  const withIbsCbs = items.filter((i) => i.ibsCbsResolved);
  if (withIbsCbs.length) {
    const ibs = (pick: (r: NonNullable<CheckedItem['ibsCbsResolved']>) => bigint) => sum(withIbsCbs.map((i) => pick(i.ibsCbsResolved!)));
    totals.ibsCbs = {
      vBCIBSCBS: ibs((r) => r.vBC),
      vIBSUF: ibs((r) => r.ibsUf.v),
      vIBSMun: ibs((r) => r.ibsMun.v),
      vIBS: ibs((r) => r.vIbs),
      vCBS: ibs((r) => r.cbs.v),
    };
  }
  return totals;
}
