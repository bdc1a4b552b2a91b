import { DomainError } from '../../errors/index.js';
import type { Pagamento } from '../types.js';

/**
 * API.md, emission rule 6: finNFe 2, 3 and 4 need `referenciadas` (authority cStat 254/321);
 * 3 and 4 also need a single payment `forma 90` with `valor 0`.
 */
export function checkFinalidade(finNFe: number, referenciadas: readonly unknown[], pagamentos: readonly Pagamento[]): void {
  if ((finNFe === 2 || finNFe === 3 || finNFe === 4) && referenciadas.length === 0) {
    throw new DomainError('FINALIDADE_SEM_NFREF', { finNFe, campo: 'referenciadas' });
  }
  if (finNFe === 3 || finNFe === 4) {
    const only = pagamentos.length === 1 ? pagamentos[0]! : undefined;
    if (!only || only.forma !== '90' || only.valor !== 0) {
      throw new DomainError('FINALIDADE_EXIGE_SEM_PAGAMENTO', {
        finNFe, campo: 'pagamentos', recebido: pagamentos.map((p) => ({ forma: p.forma, valor: p.valor })),
      });
    }
  }
}
