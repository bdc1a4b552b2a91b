import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import type { CheckedDps } from '../types.js';

/**
 * serv (TCServ), child of infDPS: locPrest (cLocPrestacao), cServ (cTribNac, cTribMun, xDescServ,
 * cNBS), infoCompl (xInfComp). comExt, obra and atvEvento are not supported by this API.
 * `cLocPrestacao` defaults to the issuer's municipality (decided by lib/nfse/check.ts).
 */
export function buildServ(s: CheckedDps['servico'], cLocPrestacao: string, informacoesComplementares: string | undefined): XmlNode {
  return el('serv', [
    el('locPrest', [leaf('cLocPrestacao', cLocPrestacao)]),
    el('cServ', [
      leaf('cTribNac', s.cTribNac),
      opt('cTribMun', s.cTribMun),
      leaf('xDescServ', s.discriminacao),
      opt('cNBS', s.codigoNBS),
    ]),
    informacoesComplementares !== undefined && el('infoCompl', [leaf('xInfComp', informacoesComplementares)]),
  ]);
}
