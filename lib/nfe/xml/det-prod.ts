import type { Ambiente } from '../../issuer/types.js';
import type { CheckedItem, Combustivel, Model } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import { money, moneyOf, qty, rate, unitValue } from './format.js';

/** MOC 4.00 / NFC-e manual: in homologação the first NFC-e item's description is this literal. */
export const HOMOLOGACAO_XPROD_NFCE = 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';

/** Optional money of prod (TDec_1302Opc: zero is not a valid value, so it is omitted). */
const optMoney = (name: string, value: number | undefined): XmlNode | undefined =>
  value ? leaf(name, moneyOf(value)) : undefined;

/** comb: LA01, child of prod (I01); fuel items (monofasic ICMS CST 02/15/53/61). */
export function buildComb(c: Combustivel): XmlNode {
  return el('comb', [
    leaf('cProdANP', c.cProdANP),
    leaf('descANP', c.descANP),
    c.pGLP !== undefined ? leaf('pGLP', rate(c.pGLP)) : undefined,
    c.pGNn !== undefined ? leaf('pGNn', rate(c.pGNn)) : undefined,
    c.pGNi !== undefined ? leaf('pGNi', rate(c.pGNi)) : undefined,
    c.vPart !== undefined ? leaf('vPart', moneyOf(c.vPart)) : undefined,
    leaf('UFCons', c.ufConsumo),
  ]);
}

/**
 * prod: I01, child of det (H01). Quantities with 4 decimals (qCom/qTrib, TDec_1104v), unit values
 * up to 10 (vUnCom/vUnTrib, TDec_1110v), vProd from the checked cents. The tax unit (uTrib,
 * qTrib, vUnTrib, cEANTrib) arrives resolved by the rules.
 */
export function buildProd(item: CheckedItem, model: Model, tpAmb: Ambiente): XmlNode {
  const xProd = model === '65' && tpAmb === 2 && item.nItem === 1 ? HOMOLOGACAO_XPROD_NFCE : item.descricao;
  return el('prod', [
    leaf('cProd', item.codigo),
    leaf('cEAN', item.ean),
    leaf('xProd', xProd),
    leaf('NCM', item.ncm),
    opt('CEST', item.cest),
    opt('cBenef', item.cBenef),
    leaf('CFOP', item.cfop),
    leaf('uCom', item.unidade),
    leaf('qCom', qty(item.quantidade)),
    leaf('vUnCom', unitValue(item.valorUnitario)),
    leaf('vProd', money(item.valorTotalCents)),
    leaf('cEANTrib', item.eanTributavel),
    leaf('uTrib', item.unidadeTributavel),
    leaf('qTrib', qty(item.quantidadeTributavel)),
    leaf('vUnTrib', unitValue(item.valorUnitarioTributavel)),
    optMoney('vFrete', item.valorFrete),
    optMoney('vSeg', item.valorSeguro),
    optMoney('vDesc', item.desconto),
    optMoney('vOutro', item.outrasDespesas),
    leaf('indTot', item.indTot),
    opt('xPed', item.pedidoCompra),
    opt('nItemPed', item.itemPedidoCompra),
    item.combustivel && buildComb(item.combustivel),
  ]);
}
