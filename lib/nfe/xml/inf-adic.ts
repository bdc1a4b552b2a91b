import type { CheckedNote, ProcessoReferenciado } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';

/** infCpl written when the caller sent no complementary information (API.md, NF-e payload). */
export const DEFAULT_INF_CPL = 'Documento fiscal emitido eletronicamente; consulte a autenticidade pela chave de acesso no portal da SEFAZ.';

/** procRef: Z10, child of infAdic (Z01). */
export function buildProcRef(p: ProcessoReferenciado): XmlNode {
  return el('procRef', [leaf('nProc', p.numero), leaf('indProc', p.origem), opt('tpAto', p.tipoAto)]);
}

/**
 * infAdic: Z01, child of infNFe (A01): infAdFisco (Z02), infCpl (Z03), procRef (Z10). infCpl is the
 * caller's text (or the platform's) followed, when the issuer enables it, by the approximate-tax
 * text of Lei 12.741 (its length was checked with the rules).
 */
export function buildInfAdic(note: CheckedNote): XmlNode {
  const cpl = note.informacoesComplementares ?? DEFAULT_INF_CPL;
  return el('infAdic', [
    opt('infAdFisco', note.informacoesFisco),
    leaf('infCpl', note.approximateTax ? `${cpl} ${note.approximateTax.texto}` : cpl),
    ...note.processosReferenciados.map(buildProcRef),
  ]);
}
