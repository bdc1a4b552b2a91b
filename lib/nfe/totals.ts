import { cents, scaled } from './rules/amounts.js';
import { ipiCents } from './rules/pis-cofins-ipi.js';
import type { CheckedNote, NoteTotals } from './types.js';

/**
 * ICMSTot and IBSCBSTot of the note (API.md, NF-e payload: totals are never sent), in exact
 * integers: each item's values are already rounded to cents, so the totals are plain sums, the
 * way the authority validates them. One pass over the items (990 at most, on the hot path).
 *
 * vNF = vProd − vDesc + vFrete + vSeg + vOutro + vIPI + vST + vFCPST (API.md). Items with
 * indTot 0 stay out of vProd only (MOC 4.00, W07); their other amounts are still summed.
 * With `indDeduzDeson: 1` the item's vICMSDeson is also subtracted from vNF (NT 2023.004, the
 * rule behind rejection 610): the only departure from the API.md formula.
 * vFCPUFDest, vICMSUFDest and vICMSUFRemet sum the items' ICMSUFDest groups and stay
 * out of vNF: the partilha is paid to the destination UF apart (GNRE), not by the buyer.
 * vTotTrib is the sum of the items' approximate tax (lib/nfe/approximate-tax.ts), 0 when the issuer
 * does not enable it.
 */
export function computeTotals(note: Pick<CheckedNote, 'items'>): NoteTotals {
  let vBC = 0n, vICMS = 0n, vICMSDeson = 0n, vFCP = 0n, vBCST = 0n, vST = 0n, vFCPST = 0n;
  let qBCMono = 0n, vICMSMono = 0n, qBCMonoRet = 0n, vICMSMonoRet = 0n;
  let vTotTrib = 0n, vProd = 0n, vFrete = 0n, vSeg = 0n, vDesc = 0n, vIPI = 0n, vPIS = 0n, vCOFINS = 0n, vOutro = 0n, deducted = 0n;
  let ibs: NonNullable<NoteTotals['ibsCbs']> | undefined;
  let difal: NonNullable<NoteTotals['icmsUfDest']> | undefined;
  for (const item of note.items) {
    const icms = item.icms;
    if (item.indTot === 1) vProd += item.valorTotalCents;
    if (item.approximateTax) vTotTrib += item.approximateTax.total;
    vDesc += cents(item.desconto);
    vFrete += cents(item.valorFrete);
    vSeg += cents(item.valorSeguro);
    vOutro += cents(item.outrasDespesas);
    vIPI += ipiCents(item.ipi);
    vPIS += cents(item.pis?.valor);
    vCOFINS += cents(item.cofins?.valor);
    vBC += cents(icms.vBC);
    vICMS += cents(icms.vICMS);
    const deson = cents(icms.vICMSDeson);
    vICMSDeson += deson;
    if (icms.indDeduzDeson === 1) deducted += deson;
    vFCP += cents(icms.vFCP);
    vBCST += cents(icms.vBCST);
    vST += cents(icms.vICMSST);
    vFCPST += cents(icms.vFCPST);
    if (icms.qBCMono !== undefined) qBCMono += scaled(icms.qBCMono, 4);
    vICMSMono += cents(icms.vICMSMono);
    if (icms.qBCMonoRet !== undefined) qBCMonoRet += scaled(icms.qBCMonoRet, 4);
    vICMSMonoRet += cents(icms.vICMSMonoRet);
    const d = item.icmsUfDestResolved;
    if (d) {
      difal ??= { vFCPUFDest: 0n, vICMSUFDest: 0n, vICMSUFRemet: 0n };
      difal.vFCPUFDest += d.fcp?.vFCPUFDest ?? 0n;
      difal.vICMSUFDest += d.vICMSUFDest;
      difal.vICMSUFRemet += d.vICMSUFRemet;
    }
    const r = item.ibsCbsResolved;
    if (r) {
      ibs ??= { vBCIBSCBS: 0n, vIBSUF: 0n, vIBSMun: 0n, vIBS: 0n, vCBS: 0n };
      ibs.vBCIBSCBS += r.vBC;
      ibs.vIBSUF += r.ibsUf.v;
      ibs.vIBSMun += r.ibsMun.v;
      ibs.vIBS += r.vIbs;
      ibs.vCBS += r.cbs.v;
    }
  }
  const totals: NoteTotals = {
    vBC, vICMS, vICMSDeson, vFCP, vBCST, vST, vFCPST, qBCMono, vICMSMono, qBCMonoRet, vICMSMonoRet,
    vProd, vFrete, vSeg, vDesc, vIPI, vPIS, vCOFINS, vOutro,
    vNF: vProd - vDesc + vFrete + vSeg + vOutro + vIPI + vST + vFCPST - deducted,
    vTotTrib,
  };
  if (difal) totals.icmsUfDest = difal;
  if (ibs) totals.ibsCbs = ibs;
  return totals;
}
