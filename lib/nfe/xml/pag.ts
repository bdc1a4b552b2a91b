import type { Cartao, Pagamento } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import { moneyOf } from './format.js';

/** card: YA04, child of detPag (YA01a): card data when the form is a card/PIX. */
export function buildCard(c: Cartao): XmlNode {
  return el('card', [
    leaf('tpIntegra', c.tpIntegra),
    opt('CNPJ', c.cnpjInstituicao),
    opt('tBand', c.bandeira),
    opt('cAut', c.autorizacao),
    opt('CNPJReceb', c.cnpjRecebedor),
    opt('idTermPag', c.idTerminal),
  ]);
}

/** detPag: YA01a, child of pag (YA01). */
export function buildDetPag(p: Pagamento): XmlNode {
  return el('detPag', [
    opt('indPag', p.indPag),
    leaf('tPag', p.forma),
    opt('xPag', p.descricao),
    leaf('vPag', moneyOf(p.valor)),
    p.cartao && buildCard(p.cartao),
  ]);
}

/** pag: YA01, child of infNFe (A01). vTroco (YA09) only when there is change to give. */
export function buildPag(pagamentos: readonly Pagamento[], troco: number | undefined): XmlNode {
  return el('pag', [
    ...pagamentos.map(buildDetPag),
    troco ? leaf('vTroco', moneyOf(troco)) : undefined,
  ]);
}
