import { UF_BY_SIGLA } from '../access-key.js';
import type { CheckedNote } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import type { EmissionContext } from './context.js';

/**
 * tpImp (B21, MOC 4.00): the NF-e's DANFE format as the issuer chose it (1 portrait, 2 landscape,
 * 3 simplified: NT 2020.004); 4 (DANFE NFC-e) for an NFC-e.
 */
const tpImp = (note: CheckedNote, ctx: EmissionContext): string => (note.model === '65' ? '4' : String(ctx.issuer.formatoDanfe ?? 1));

/**
 * ide: B01, child of infNFe (A01). Order per the XSD sequence (MOC 4.00 + NT 2025.002).
 * dhSaiEnt (B10) only when the NF-e body sent `dataSaidaEntrada` (the NFC-e has none).
 * procEmi (B26) is 0: issued by the taxpayer's own application.
 */
export function buildIde(note: CheckedNote, ctx: EmissionContext): XmlNode {
  const cUF = UF_BY_SIGLA[ctx.issuer.endereco.uf];
  if (!cUF) throw new RangeError(`unknown issuer UF ${ctx.issuer.endereco.uf}`);
  const contingent = ctx.tpEmis !== 1;
  if (contingent && !ctx.contingency) throw new RangeError(`tpEmis ${ctx.tpEmis} needs dhCont and xJust`);
  return el('ide', [
    leaf('cUF', cUF),
    leaf('cNF', ctx.cNF),
    leaf('natOp', note.naturezaOperacao),
    leaf('mod', note.model),
    leaf('serie', ctx.serie),
    leaf('nNF', ctx.numero),
    leaf('dhEmi', ctx.dhEmi),
    opt('dhSaiEnt', note.dhSaiEnt),
    leaf('tpNF', note.tpNF),
    leaf('idDest', note.idDest),
    leaf('cMunFG', ctx.issuer.endereco.codigoMunicipio),
    leaf('tpImp', tpImp(note, ctx)),
    leaf('tpEmis', ctx.tpEmis),
    leaf('cDV', ctx.accessKey.charAt(43)),
    leaf('tpAmb', ctx.tpAmb),
    leaf('finNFe', note.finNFe),
    leaf('indFinal', note.indFinal),
    leaf('indPres', note.indPres),
    opt('indIntermed', note.indIntermed),
    leaf('procEmi', '0'),
    leaf('verProc', ctx.verProc),
    contingent && leaf('dhCont', ctx.contingency!.dhCont),
    contingent && leaf('xJust', ctx.contingency!.xJust),
    ...note.referenciadas.map((key) => el('NFref', [leaf('refNFe', key)])),
  ]);
}
