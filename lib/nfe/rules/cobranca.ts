import { DomainError } from '../../errors/index.js';
import { formatCents } from '../../money.js';
import type { Cobranca } from '../types.js';
import { cents } from './amounts.js';

/**
 * API.md, NF-e payload `cobranca`: `fatura` alone or with `duplicatas`; duplicatas without fatura
 * refuse 422 COBRANCA_INVALIDA. The invoice's net value is, by the layout's definition (vLiq,
 * Y06), the original value minus the discount; a different value is refused the same way.
 * Informative only: never part of the total.
 */
export function checkCobranca(cobranca: Cobranca | undefined): void {
  if (!cobranca) return;
  if (cobranca.duplicatas?.length && !cobranca.fatura) {
    throw new DomainError('COBRANCA_INVALIDA', { campo: 'cobranca.fatura', motivo: 'duplicatas exigem fatura' });
  }
  const fatura = cobranca.fatura;
  if (fatura) {
    const expected = cents(fatura.valorOriginal) - cents(fatura.valorDesconto);
    if (cents(fatura.valorLiquido) !== expected) {
      throw new DomainError('COBRANCA_INVALIDA', {
        campo: 'cobranca.fatura.valorLiquido', motivo: 'valorLiquido deve ser valorOriginal − valorDesconto', esperado: formatCents(expected),
      });
    }
  }
}
