import { DomainError } from '../../errors/index.js';
import { formatCents, sum } from '../../money.js';
import type { Model, Pagamento } from '../types.js';
import { cents } from './amounts.js';

/**
 * API.md, emission rule 8: `forma 90` (no payment) only with `valor 0` (authority 904) and alone;
 * never in NFC-e.
 */
export function checkSemPagamento(pagamentos: readonly Pagamento[], model: Model): void {
  const index = pagamentos.findIndex((p) => p.forma === '90');
  if (index < 0) return;
  if (model === '65') throw new DomainError('SEM_PAGAMENTO_VEDADO_NFCE', { campo: `pagamentos[${index}].forma` });
  if (pagamentos[index]!.valor !== 0) {
    throw new DomainError('SEM_PAGAMENTO_INVALIDO', { campo: `pagamentos[${index}].valor`, motivo: 'forma 90 exige valor 0' });
  }
  if (pagamentos.length > 1) {
    throw new DomainError('SEM_PAGAMENTO_INVALIDO', { campo: 'pagamentos', motivo: 'forma 90 não pode ser combinada com outras formas' });
  }
}

/** A single `forma 90` entry: the document declares no payment and the closing rule does not apply. */
export const isSemPagamento = (pagamentos: readonly Pagamento[]): boolean => pagamentos.length === 1 && pagamentos[0]!.forma === '90';

/** API.md, NF-e payload: payments minus change must equal vNF (exact cents). */
export function checkPaymentsCloseTotal(pagamentos: readonly Pagamento[], troco: number | undefined, vNF: bigint): void {
  if (isSemPagamento(pagamentos)) return;
  const paid = sum(pagamentos.map((p) => cents(p.valor)));
  const change = cents(troco);
  if (paid - change !== vNF) {
    throw new DomainError('PAGAMENTO_DIVERGENTE_DO_TOTAL', {
      totalNota: formatCents(vNF), totalPagamentos: formatCents(paid), troco: formatCents(change), diferenca: formatCents(paid - change - vNF),
    });
  }
}
