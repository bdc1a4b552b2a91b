import { el, leaf, type XmlNode } from '../../xml/writer.js';
import type { ResponsibleTechnician } from './context.js';

/**
 * infRespTec: ZD01, child of infNFe (A01), type TInfRespTec (NT 2018.005): the platform that
 * wrote the software. idCSRT/hashCSRT (ZD08/ZD09) are not written: no UF requires CSRT of us.
 */
export function buildInfRespTec(r: ResponsibleTechnician): XmlNode {
  return el('infRespTec', [leaf('CNPJ', r.cnpj), leaf('xContato', r.contato), leaf('email', r.email), leaf('fone', r.fone)]);
}
