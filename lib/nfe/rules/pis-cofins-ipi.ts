import { DomainError, type ErrorCode } from '../../errors/index.js';
import { formatCents } from '../../money.js';
import type { Ipi, Model, PisCofins } from '../types.js';
import { cents, percentCents, presentFields, productCents, withinOneCent } from './amounts.js';

/**
 * PIS, COFINS and IPI groups (API.md, "pis/cofins/ipi"; MOC 4.00 Q/S/O). One object carries either
 * the rate group or the quantity group, never both (422 TRIBUTO_GRUPOS_MISTURADOS). Values must
 * equal base × rate or quantity × amount per unit within one cent.
 *
 * PIS/COFINS CST domain (layout tables): 01, 02 rate group; 03 quantity group; 04-09 no values;
 * 49-56, 60-67, 70-75, 98, 99 either group. Anything else: 422 PIS_COFINS_INVALIDO.
 * IPI: taxed 00, 49, 50, 99 (either group); not taxed 01-05, 51-55 (CST only); else IPI_INVALIDO.
 */
const PIS_RATE_ONLY = new Set(['01', '02']);
const PIS_QUANTITY_ONLY = new Set(['03']);
const PIS_NO_VALUES = new Set(['04', '05', '06', '07', '08', '09']);
const PIS_EITHER = new Set(['49', '50', '51', '52', '53', '54', '55', '56', '60', '61', '62', '63', '64', '65', '66', '67', '70', '71', '72', '73', '74', '75', '98', '99']);

const IPI_TAXED = new Set(['00', '49', '50', '99']);
const IPI_NOT_TAXED = new Set(['01', '02', '03', '04', '05', '51', '52', '53', '54', '55']);

interface Groups<T> {
  rate: readonly (keyof T & string)[];
  quantity: readonly (keyof T & string)[];
}
const PIS_GROUPS: Groups<PisCofins> = { rate: ['baseCalculo', 'aliquota'], quantity: ['quantidadeVendida', 'valorAliquotaUnidade'] };
const IPI_GROUPS: Groups<Ipi> = { rate: ['baseCalculo', 'aliquota'], quantity: ['quantidadeUnidadeTributavel', 'valorUnidadeTributavel'] };

type Which = 'rate' | 'quantity' | 'none';

/** Which group an object uses; refuses mixing. `valor` belongs to both. */
function groupOf<T extends { valor?: number }>(tax: T, groups: Groups<T>, campo: string, item: number): Which {
  const rate = presentFields(tax, groups.rate);
  const quantity = presentFields(tax, groups.quantity);
  if (rate.length && quantity.length) {
    throw new DomainError('TRIBUTO_GRUPOS_MISTURADOS', {
      item, campos: [...rate, ...quantity].map((f) => `items[${item}].${campo}.${f}`),
      motivo: `use ${groups.rate.join(' + ')} + valor ou ${groups.quantity.join(' + ')} + valor, não ambos`,
    });
  }
  return rate.length ? 'rate' : quantity.length ? 'quantity' : 'none';
}

function checkGroupValues<T extends { valor?: number }>(
  tax: T, groups: Groups<T>, which: Which, code: ErrorCode, campo: string, item: number, cst: string,
): void {
  if (which === 'none') {
    throw new DomainError(code, { item, campo: `items[${item}].${campo}`, motivo: `CST ${cst} exige ${groups.rate.join(' + ')} + valor ou ${groups.quantity.join(' + ')} + valor` });
  }
  const fields = [...groups[which], 'valor'] as (keyof T & string)[];
  const missing = fields.filter((f) => tax[f] === undefined);
  if (missing.length) {
    throw new DomainError(code, { item, campos: missing.map((f) => `items[${item}].${campo}.${f}`), motivo: `CST ${cst} exige ${fields.join(', ')}` });
  }
  const [a, b] = groups[which].map((f) => tax[f] as number) as [number, number];
  const expected = which === 'rate' ? percentCents(cents(a), b) : productCents(a, b);
  if (!withinOneCent(expected, cents(tax.valor))) {
    throw new DomainError(code, {
      item, campos: [`items[${item}].${campo}.valor`],
      motivo: which === 'rate' ? 'valor deve ser baseCalculo × aliquota (tolerância 0,01)' : 'valor deve ser quantidade × valor por unidade (tolerância 0,01)',
      esperado: formatCents(expected), recebido: formatCents(cents(tax.valor)),
    });
  }
}

export function checkPisCofins(tax: PisCofins | undefined, campo: 'pis' | 'cofins', item: number): void {
  if (!tax) return;
  const which = groupOf(tax, PIS_GROUPS, campo, item);
  const cst = tax.cst;
  const code = 'PIS_COFINS_INVALIDO';
  if (PIS_NO_VALUES.has(cst)) {
    if (which !== 'none' || tax.valor !== undefined) {
      throw new DomainError(code, { item, campo: `items[${item}].${campo}`, motivo: `CST ${cst} (não tributado) não aceita base, alíquota ou valor` });
    }
    return;
  }
  if (PIS_RATE_ONLY.has(cst) && which === 'quantity') {
    throw new DomainError(code, { item, campo: `items[${item}].${campo}`, motivo: `CST ${cst} usa baseCalculo + aliquota + valor` });
  }
  if (PIS_QUANTITY_ONLY.has(cst) && which === 'rate') {
    throw new DomainError(code, { item, campo: `items[${item}].${campo}`, motivo: 'CST 03 usa quantidadeVendida + valorAliquotaUnidade + valor' });
  }
  if (!PIS_RATE_ONLY.has(cst) && !PIS_QUANTITY_ONLY.has(cst) && !PIS_EITHER.has(cst)) {
    throw new DomainError(code, { item, campo: `items[${item}].${campo}.cst`, motivo: `CST ${cst} inexistente` });
  }
  checkGroupValues(tax, PIS_GROUPS, which, code, campo, item, cst);
}

/** IPI: NF-e only (API.md: any content in NFC-e refuses 422 IPI_NAO_SUPORTADO). */
export function checkIpi(ipi: Ipi | undefined, item: number, model: Model): void {
  if (!ipi) return;
  if (model === '65') throw new DomainError('IPI_NAO_SUPORTADO', { item, campo: `items[${item}].ipi` });
  const which = groupOf(ipi, IPI_GROUPS, 'ipi', item);
  if (IPI_NOT_TAXED.has(ipi.cst)) {
    if (which !== 'none' || ipi.valor !== undefined) {
      throw new DomainError('IPI_INVALIDO', { item, campo: `items[${item}].ipi`, motivo: `CST ${ipi.cst} (não tributado) aceita apenas cst e cEnq` });
    }
    return;
  }
  if (!IPI_TAXED.has(ipi.cst)) {
    throw new DomainError('IPI_INVALIDO', { item, campo: `items[${item}].ipi.cst`, motivo: `CST ${ipi.cst} inexistente; tributados 00, 49, 50, 99; não tributados 01-05, 51-55` });
  }
  checkGroupValues(ipi, IPI_GROUPS, which, 'IPI_INVALIDO', 'ipi', item, ipi.cst);
}

/** IPI value of an item in cents (0 when not taxed or absent). */
export const ipiCents = (ipi: Ipi | undefined): bigint => (ipi && IPI_TAXED.has(ipi.cst) ? cents(ipi.valor) : 0n);
