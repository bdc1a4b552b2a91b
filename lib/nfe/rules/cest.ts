import { DomainError } from '../../errors/index.js';

/** CEST: 7 digits once the usual mask (`01.003.00`) is stripped (API.md, Item); else 422. */
export function normalizeCest(cest: string | undefined, item: number): string | undefined {
  if (cest === undefined) return undefined;
  const digits = cest.replace(/[.\-\s]/g, '');
  if (!/^\d{7}$/.test(digits)) throw new DomainError('CEST_INVALIDO', { item, campo: `items[${item}].cest`, recebido: cest });
  return digits;
}
