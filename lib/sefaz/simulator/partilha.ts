import { interstateRate, ufRates } from '../../nfe/difal-rates.js';
import type { NfeFacts, PartilhaItemFacts } from './facts.js';
import type { SimulatorCStat } from './codes.js';

/**
 * The authority's checks of the ICMSUFDest values themselves (EC 87/2015), the rules of
 * NT 2015.003 v1.94 (June 2017) section NA and W that depend on the XML alone, in field order:
 *
 * - NA09-10/NA09-20 (697): pICMSInter 4% only for imported goods (orig 1, 2, 3, 8), and 7% or 12%
 *   only for the others.
 * - NA09-30 (698): on a normal outgoing note (tpNF 1, finNFe 1), pICMSInter 7% or 12% must be the
 *   one of the UFs: 7% from S/SE except ES to N/NE/CO/ES, 12% otherwise. Not applied to return CFOPs
 *   (Anexo XIII.04), when entrega/UF differs from the emitter's UF (exceção 3), nor when
 *   retirada/UF differs from the recipient's UF (exceção 4).
 * - NA11-10 (699): pICMSInterPart is the destination's share for the year of the emission: 40% in
 *   2016, 60% in 2017, 80% in 2018, 100% from 2019 (ADCT art. 99, EC 87/2015). A note that is not
 *   normal (finNFe ≠ 1), or a return CFOP, is held to the year of the referenced NF-e (its key's
 *   AA); without one the rule is skipped. Not applied before 2016.
 * - W04c-10/W04e-10/W04g-10 (798/799/800): ICMSTot's vFCPUFDest, vICMSUFDest and vICMSUFRemet
 *   equal the sum of the items' (an absent value counts as zero).
 *
 * The value rules NA15-10 (815) and NA17-10 (816) are "implementação futura" in that NT, so the
 * simulator, like the authority, does not recompute vICMSUFDest; NA13-10 (vFCPUFDest = vBCUFDest ×
 * pFCPUFDest) is not checked either: its code 793 means another rule in data/sefaz/cstat.json.
 * First rule broken (naming the item where the rule is per item), or null.
 */
export interface PartilhaProblem { cStat: SimulatorCStat; nItem?: string }

const IMPORTED: ReadonlySet<string> = new Set(['1', '2', '3', '8']);
/** NT 2015.003 Anexo XIII.04, the outgoing (5.xxx/6.xxx) CFOPs of "Retorno de Mercadoria". */
const RETURN_CFOPS: ReadonlySet<string> = new Set([
  '5664', '5665', '5902', '5903', '5906', '5907', '5909', '5913', '5916', '5925',
  '6664', '6665', '6902', '6903', '6906', '6907', '6909', '6913', '6916', '6925',
]);

const percent = (text: string) => Number(text);
/** A TDec_1302 value in cents (null and '' count as zero, as W04e/W04g say). */
const cents = (text: string | null) => (text ? Math.round(Number(text) * 100) : 0);

/** NA11: the destination's share (%) by year of the operation, or null before the partilha existed. */
export function expectedInterPart(year: number): number | null {
  if (year < 2016) return null;
  return ({ 2016: 40, 2017: 60, 2018: 80 } as Record<number, number>)[year] ?? 100;
}

function originProblem(i: PartilhaItemFacts): boolean {
  const rate = percent(i.pICMSInter);
  return IMPORTED.has(i.orig) ? rate !== 4 : rate === 4;
}

function ufProblem(f: NfeFacts, i: PartilhaItemFacts): boolean {
  const rate = percent(i.pICMSInter);
  if (rate === 4 || f.tpNF !== '1' || f.finNFe !== '1' || RETURN_CFOPS.has(i.cfop)) return false;
  if (f.entregaUf !== null && f.entregaUf !== f.emit.uf) return false;
  if (f.retiradaUf !== null && f.retiradaUf !== f.dest?.uf) return false;
  const dest = ufRates(f.dest?.uf ?? '');
  if (!dest || !ufRates(f.emit.uf)) return false;
  return percent(interstateRate(f.emit.uf, dest, 0)) !== rate;
}

function shareYear(f: NfeFacts, i: PartilhaItemFacts): number | null {
  if (f.finNFe === '1' && !RETURN_CFOPS.has(i.cfop)) return Number(f.dhEmi.slice(0, 4));
  const ref = f.refNFe[0];
  return ref && /^\d{44}$/.test(ref) ? 2000 + Number(ref.slice(2, 4)) : null;
}

function shareProblem(f: NfeFacts, i: PartilhaItemFacts): boolean {
  const year = shareYear(f, i);
  const expected = year === null ? null : expectedInterPart(year);
  return expected !== null && percent(i.pICMSInterPart) !== expected;
}

const TOTALS = [['vFCPUFDest', 798], ['vICMSUFDest', 799], ['vICMSUFRemet', 800]] as const;

export function checkPartilha(f: NfeFacts): PartilhaProblem | null {
  if (f.mod !== '55') return null;
  const items = f.partilha.items;
  const rules: [SimulatorCStat, (i: PartilhaItemFacts) => boolean][] = [
    [697, originProblem], [698, (i) => ufProblem(f, i)], [699, (i) => shareProblem(f, i)],
  ];
  for (const [cStat, broken] of rules) {
    const item = items.find(broken);
    if (item) return { cStat, nItem: item.nItem };
  }
  for (const [field, cStat] of TOTALS) {
    const sum = items.reduce((s, i) => s + cents(i[field]), 0);
    if (sum !== cents(f.partilha.totals[field])) return { cStat };
  }
  return null;
}
