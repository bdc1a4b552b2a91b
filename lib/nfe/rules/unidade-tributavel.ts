import { DomainError } from '../../errors/index.js';
import { formatCents } from '../../money.js';
import type { Item } from '../types.js';
import { cents, productCents, scaled, withinOneCent } from './amounts.js';

export interface ItemValues {
  /** vProd in cents. */
  valorTotalCents: bigint;
  unidadeTributavel: string;
  quantidadeTributavel: number;
  valorUnitarioTributavel: number;
  eanTributavel: string;
}

/** quantity (11v0-4) × unit value (11v0-10), rounded half up to cents. */
export const lineCents = (quantidade: number, valorUnitario: number): bigint => productCents(quantidade, valorUnitario, 10);

/**
 * Product value and tax unit of one item (API.md, Item, unit rules 2-4):
 * - vProd = quantidade × valorUnitario rounded to cents; a sent `valorTotal` must agree within one
 *   cent (the authority's tolerance, rejection 629) and then is kept as sent;
 * - the tax unit repeats the commercial unit when absent (the partial group is a 400 in validate.ts);
 * - quantidadeTributavel × valorUnitarioTributavel must give the same product (within one cent,
 *   rejection 630), else 422 UNIDADE_TRIBUTAVEL_INVALIDA;
 * - the same unit with a different quantity or unit value is incoherent: 422 as well.
 */
export function resolveItemValues(item: Item, index: number): ItemValues {
  const computed = lineCents(item.quantidade, item.valorUnitario);
  let valorTotalCents = computed;
  if (item.valorTotal !== undefined) {
    const sent = cents(item.valorTotal);
    if (!withinOneCent(sent, computed)) {
      throw new DomainError('VALOR_TOTAL_ITEM_DIVERGENTE', {
        item: index, campo: `items[${index}].valorTotal`, esperado: formatCents(computed), recebido: formatCents(sent),
      });
    }
    valorTotalCents = sent;
  }
  if (cents(item.desconto) > valorTotalCents) {
    throw new DomainError('DESCONTO_SUPERIOR_AO_PRODUTO', { item: index, campo: `items[${index}].desconto`, valorProduto: formatCents(valorTotalCents) });
  }
  const eanTributavel = item.eanTributavel ?? item.ean;
  if (item.unidadeTributavel === undefined || item.quantidadeTributavel === undefined || item.valorUnitarioTributavel === undefined) {
    return {
      valorTotalCents, eanTributavel,
      unidadeTributavel: item.unidade, quantidadeTributavel: item.quantidade, valorUnitarioTributavel: item.valorUnitario,
    };
  }
  const sameUnit = item.unidadeTributavel.trim().toUpperCase() === item.unidade.trim().toUpperCase();
  if (sameUnit && (scaled(item.quantidadeTributavel, 4) !== scaled(item.quantidade, 4)
    || scaled(item.valorUnitarioTributavel, 10) !== scaled(item.valorUnitario, 10))) {
    throw new DomainError('UNIDADE_TRIBUTAVEL_INVALIDA', {
      item: index, campo: `items[${index}].unidadeTributavel`,
      motivo: 'unidade tributável igual à comercial exige mesma quantidade e mesmo valor unitário',
    });
  }
  const taxProduct = lineCents(item.quantidadeTributavel, item.valorUnitarioTributavel);
  if (!withinOneCent(taxProduct, computed)) {
    throw new DomainError('UNIDADE_TRIBUTAVEL_INVALIDA', {
      item: index, campo: `items[${index}].quantidadeTributavel`,
      motivo: 'quantidadeTributavel × valorUnitarioTributavel deve igualar quantidade × valorUnitario',
      esperado: formatCents(computed), recebido: formatCents(taxProduct),
    });
  }
  return {
    valorTotalCents, eanTributavel,
    unidadeTributavel: item.unidadeTributavel, quantidadeTributavel: item.quantidadeTributavel, valorUnitarioTributavel: item.valorUnitarioTributavel,
  };
}
