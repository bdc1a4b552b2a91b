import { DomainError } from '../../errors/index.js';
import { formatScaled } from '../../money.js';
import type { IbsCbsRate, Item, ResolvedIbsCbs, ResolvedRate } from '../types.js';
import { cents, percentCents, scaled } from './amounts.js';

const RATES = ['ibsUf', 'ibsMun', 'cbs'] as const;

/** A rate as the layout prints it (TDec_0302_04): 4 decimals. */
const rateString = (p: number): string => formatScaled(scaled(p, 4), 4);

/**
 * The IBS/CBS group with every default (API.md, ibsCbs table; NT 2025.002): cst 000, cClassTrib
 * 000001 (schema defaults), vBC = product − discount + freight + insurance + other expenses,
 * v = p × vBC rounded to cents, vIbs = ibsUf.v + ibsMun.v. Sent values are kept as sent.
 * The three rate objects are required at this point: a group with `cClassTrib` alone is resolved
 * by assisted taxation before the rules run; still incomplete here it refuses IBSCBS_INCOMPLETO.
 * `pNominal` and `pRedAliq` go together (absent = no reduction).
 */
export function resolveIbsCbs(item: Item, index: number, valorTotalCents: bigint): ResolvedIbsCbs | undefined {
  const group = item.ibsCbs;
  if (!group) return undefined;
  const missing = RATES.filter((r) => group[r] === undefined);
  if (missing.length) {
    throw new DomainError('IBSCBS_INCOMPLETO', {
      item: index, campos: missing.map((r) => `items[${index}].ibsCbs.${r}`),
      motivo: 'informe ibsUf, ibsMun e cbs, ou só cClassTrib com resolverTributacao: true',
    });
  }
  const vBC = group.vBC !== undefined
    ? cents(group.vBC)
    : valorTotalCents - cents(item.desconto) + cents(item.valorFrete) + cents(item.valorSeguro) + cents(item.outrasDespesas);
  const resolve = (name: (typeof RATES)[number]): ResolvedRate => {
    const rate = group[name] as IbsCbsRate;
    if ((rate.pNominal === undefined) !== (rate.pRedAliq === undefined)) {
      throw new DomainError('IBSCBS_INCOMPLETO', {
        item: index, campos: [`items[${index}].ibsCbs.${name}.${rate.pNominal === undefined ? 'pNominal' : 'pRedAliq'}`],
        motivo: 'pNominal e pRedAliq vão juntos',
      });
    }
    return {
      p: rateString(rate.p),
      ...(rate.pNominal !== undefined ? { pNominal: rateString(rate.pNominal) } : {}),
      ...(rate.pRedAliq !== undefined ? { pRedAliq: rateString(rate.pRedAliq) } : {}),
      v: rate.v !== undefined ? cents(rate.v) : percentCents(vBC, rate.p),
    };
  };
  const ibsUf = resolve('ibsUf');
  const ibsMun = resolve('ibsMun');
  const cbs = resolve('cbs');
  return {
    cst: group.cst ?? '000',
    cClassTrib: group.cClassTrib ?? '000001',
    vBC, ibsUf, ibsMun, cbs,
    vIbs: group.vIbs !== undefined ? cents(group.vIbs) : ibsUf.v + ibsMun.v,
  };
}
