import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import type { CheckedIbsCbs } from '../types.js';
import { percent } from './format.js';

/**
 * IBSCBS (TCRTCInfoIBSCBS), last child of infDPS, passthrough of the request's `ibsCbs`. Children
 * in XSD order: finNFSe, indFinal, cIndOp, tpOper, tpEnteGov, indDest, valores/trib/gIBSCBS (CST,
 * cClassTrib, cCredPres, gTribRegular (CSTReg, cClassTribReg), gDif (pDifUF, pDifMun, pDifCBS)).
 * gRefNFSe, dest, imovel and gReeRepRes are not supported by this API.
 */
export function buildIbsCbs(g: CheckedIbsCbs | undefined): XmlNode | undefined {
  if (!g) return undefined;
  return el('IBSCBS', [
    leaf('finNFSe', g.finNFSe),
    g.indFinal !== undefined && leaf('indFinal', g.indFinal),
    leaf('cIndOp', g.cIndOp),
    g.tpOper !== undefined && leaf('tpOper', g.tpOper),
    g.tpEnteGov !== undefined && leaf('tpEnteGov', g.tpEnteGov),
    leaf('indDest', g.indDest),
    el('valores', [el('trib', [el('gIBSCBS', [
      leaf('CST', g.cst),
      leaf('cClassTrib', g.cClassTrib),
      opt('cCredPres', g.cCredPres),
      g.gTribRegular && el('gTribRegular', [leaf('CSTReg', g.gTribRegular.cstReg), leaf('cClassTribReg', g.gTribRegular.cClassTribReg)]),
      g.gDif && el('gDif', [leaf('pDifUF', percent(g.gDif.pDifUF)), leaf('pDifMun', percent(g.gDif.pDifMun)), leaf('pDifCBS', percent(g.gDif.pDifCBS))]),
    ])])]),
  ]);
}
