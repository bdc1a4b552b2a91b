/**
 * The DANFSe view model (Documento Auxiliar da NFS-e, national layout "DANFSe v1.0" of the Sistema
 * Nacional NFS-e; see ./rows.ts for the source): what the printed document shows, read from the
 * NFS-e XML Sefin Nacional generated (infNFSe with the DPS inside). Amounts stay decimal strings
 * of the XML; the few sums the layout shows (retentions, PIS/COFINS own debit) are exact in cents.
 * Formatting is the renderers' (lib/danfe/format.ts).
 */
import { XmlDocument, type XmlElement } from 'libxml2-wasm';
import { NFSE_NS } from '../nfse/xml/dps.js';
import { formatCents } from '../money.js';
import { child, municipioUf, party, text, type DanfsePartyView } from './xml-read.js';
import {
  COFINS_RETIDO, OP_SIMP_NAC, PIS_RETIDO, REG_AP_TRIB_SN, REG_ESP_TRIB, TP_BM, TP_IMUNIDADE, TP_RET_ISSQN, TP_RET_PIS_COFINS, TP_SUSP, TRIB_ISSQN,
} from './domains.js';
import { parseXml } from '../xml/parse.js';

export type { DanfsePartyView } from './xml-read.js';

export interface DanfseView {
  chaveAcesso: string;
  numero: string;
  dhProc: string;
  dhEmi: string;
  competencia: string;
  serie: string;
  nDPS: string;
  homologacao: boolean;
  cancelada: boolean;
  /** Public consultation of the NFS-e by its key (what the DANFSe QR code carries). */
  consultaUrl: string;
  /** Municipality that issued the NFS-e (xLocEmi with its UF), in the header. */
  municipioEmissor: string;
  emitente: DanfsePartyView & { simplesNacional: string; regimeApuracaoSN: string };
  tomador: DanfsePartyView | null;
  intermediario: DanfsePartyView | null;
  servico: { cTribNac: string; xTribNac: string; cTribMun: string; xTribMun: string; localPrestacao: string; paisPrestacao: string; descricao: string };
  tribMun: {
    tribISSQN: string; paisResultado: string; municipioIncidencia: string; regimeEspecial: string; tipoImunidade: string;
    suspensao: string; processoSuspensao: string; beneficioMunicipal: string;
    vServ: string; vDescIncond: string; vDeducoes: string; vCalcBM: string; vBC: string; pAliq: string; retencao: string; vISSQN: string;
  };
  tribFed: { irrf: string; cp: string; contribSociais: string; descricaoContribSociais: string; pisProprio: string; cofinsProprio: string };
  valores: { vServ: string; vDescCond: string; vDescIncond: string; issqnRetido: string; retencoesFederais: string; pisCofinsProprio: string; vLiq: string };
  /** Approximate taxes (Lei 12.741/2012) as the DPS declared them: amounts, percentages or the Simples Nacional total rate. */
  totTrib: { tipo: 'valor' | 'percentual' | 'simples' | 'nenhum'; federais: string; estaduais: string; municipais: string; simples: string };
  informacoesComplementares: string;
}

export const CONSULTA_PUBLICA_URL = 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=';

function cents(decimal: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(decimal);
  return m ? BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0')) : 0n;
}

/** Sum of the amounts present, '' when none is (the layout prints "-", not a zero it was never told). */
function sumOf(...values: string[]): string {
  const present = values.filter(Boolean);
  return present.length ? formatCents(present.reduce((s, v) => s + cents(v), 0n)) : '';
}

function totTrib(trib: XmlElement | null): DanfseView['totTrib'] {
  const t = child(trib, 'totTrib');
  const none = { federais: '', estaduais: '', municipais: '', simples: '' };
  if (child(t, 'vTotTrib')) return { ...none, tipo: 'valor', federais: text(t, 'vTotTrib/vTotTribFed'), estaduais: text(t, 'vTotTrib/vTotTribEst'), municipais: text(t, 'vTotTrib/vTotTribMun') };
  if (child(t, 'pTotTrib')) return { ...none, tipo: 'percentual', federais: text(t, 'pTotTrib/pTotTribFed'), estaduais: text(t, 'pTotTrib/pTotTribEst'), municipais: text(t, 'pTotTrib/pTotTribMun') };
  if (text(t, 'pTotTribSN')) return { ...none, tipo: 'simples', simples: text(t, 'pTotTribSN') };
  return { ...none, tipo: 'nenhum' };
}

/** tribFed: IRRF, CP, the social contributions withheld (vRetCSLL) and PIS/COFINS of the provider's own calculation. */
function tribFed(trib: XmlElement | null): DanfseView['tribFed'] {
  const fed = child(trib, 'tribFed');
  const tpRet = text(fed, 'piscofins/tpRetPisCofins');
  return {
    irrf: text(fed, 'vRetIRRF'), cp: text(fed, 'vRetCP'), contribSociais: text(fed, 'vRetCSLL'), descricaoContribSociais: TP_RET_PIS_COFINS[tpRet] ?? '',
    pisProprio: PIS_RETIDO.has(tpRet) ? '' : text(fed, 'piscofins/vPis'),
    cofinsProprio: COFINS_RETIDO.has(tpRet) ? '' : text(fed, 'piscofins/vCofins'),
  };
}

/** Reads an NFS-e (root NFSe, layout 1.00/1.01). Throws on XML that is not one. */
export function buildDanfseView(xml: string, options: { cancelada?: boolean } = {}): DanfseView {
  let doc: XmlDocument;
  try {
    doc = parseXml(xml);
  } catch (err) {
    throw new Error(`malformed XML: ${String((err as Error).message).trim()}`);
  }
  try {
    const root = doc.root;
    if (root.name !== 'NFSe' || root.namespaceUri !== NFSE_NS) throw new Error(`not an NFS-e: root ${root.name}`);
    const inf = child(root, 'infNFSe');
    const dps = child(inf, 'DPS/infDPS');
    if (!inf || !dps) throw new Error('not an NFS-e: infNFSe/DPS/infDPS missing');
    const chave = (inf.attr('Id')?.value ?? '').replace(/^NFS/, '');
    const emit = party(child(inf, 'emit'))!;
    const regTrib = child(dps, 'prest/regTrib');
    const nfseValores = child(inf, 'valores');
    const dpsValores = child(dps, 'valores');
    const trib = child(dpsValores, 'trib');
    const mun = child(trib, 'tribMun');
    const fed = tribFed(trib);
    const tpRetISSQN = text(mun, 'tpRetISSQN');
    const uf = text(inf, 'emit/enderNac/UF');
    const nBM = text(mun, 'BM/nBM');
    return {
      chaveAcesso: chave, numero: text(inf, 'nNFSe'), dhProc: text(inf, 'dhProc'), dhEmi: text(dps, 'dhEmi'), competencia: text(dps, 'dCompet'),
      serie: text(dps, 'serie'), nDPS: text(dps, 'nDPS'), homologacao: text(dps, 'tpAmb') === '2', cancelada: options.cancelada ?? false,
      consultaUrl: CONSULTA_PUBLICA_URL + chave,
      municipioEmissor: [text(inf, 'xLocEmi'), uf].filter(Boolean).join(' - '),
      emitente: { ...emit, simplesNacional: OP_SIMP_NAC[text(regTrib, 'opSimpNac')] ?? '', regimeApuracaoSN: REG_AP_TRIB_SN[text(regTrib, 'regApTribSN')] ?? '' },
      tomador: party(child(dps, 'toma')),
      intermediario: party(child(dps, 'interm')),
      servico: {
        cTribNac: text(dps, 'serv/cServ/cTribNac'), xTribNac: text(inf, 'xTribNac'), cTribMun: text(dps, 'serv/cServ/cTribMun'), xTribMun: text(inf, 'xTribMun'),
        localPrestacao: text(inf, 'xLocPrestacao') || municipioUf(text(dps, 'serv/locPrest/cLocPrestacao')),
        paisPrestacao: text(dps, 'serv/locPrest/cPaisPrestacao'), descricao: text(dps, 'serv/cServ/xDescServ'),
      },
      tribMun: {
        tribISSQN: TRIB_ISSQN[text(mun, 'tribISSQN')] ?? '', paisResultado: text(mun, 'cPaisResult'),
        municipioIncidencia: text(inf, 'xLocIncid') || municipioUf(text(inf, 'cLocIncid')),
        regimeEspecial: REG_ESP_TRIB[text(regTrib, 'regEspTrib')] ?? '', tipoImunidade: TP_IMUNIDADE[text(mun, 'tpImunidade')] ?? '',
        suspensao: TP_SUSP[text(mun, 'exigSusp/tpSusp')] ?? 'Não', processoSuspensao: text(mun, 'exigSusp/nProcesso'),
        beneficioMunicipal: [nBM, TP_BM[text(nfseValores, 'tpBM')]].filter(Boolean).join(' - '),
        vServ: text(dpsValores, 'vServPrest/vServ'), vDescIncond: text(dpsValores, 'vDescCondIncond/vDescIncond'),
        vDeducoes: text(nfseValores, 'vCalcDR') || text(dpsValores, 'vDedRed/vDR'), vCalcBM: text(nfseValores, 'vCalcBM'),
        vBC: text(nfseValores, 'vBC'), pAliq: text(nfseValores, 'pAliqAplic') || text(mun, 'pAliq'),
        retencao: TP_RET_ISSQN[tpRetISSQN] ?? '', vISSQN: text(nfseValores, 'vISSQN'),
      },
      tribFed: fed,
      valores: {
        vServ: text(dpsValores, 'vServPrest/vServ'), vDescCond: text(dpsValores, 'vDescCondIncond/vDescCond'), vDescIncond: text(dpsValores, 'vDescCondIncond/vDescIncond'),
        issqnRetido: tpRetISSQN === '2' || tpRetISSQN === '3' ? text(nfseValores, 'vISSQN') : '',
        retencoesFederais: sumOf(fed.irrf, fed.cp, fed.contribSociais), pisCofinsProprio: sumOf(fed.pisProprio, fed.cofinsProprio),
        vLiq: text(nfseValores, 'vLiq'),
      },
      totTrib: totTrib(trib),
      informacoesComplementares: [text(dps, 'serv/infoCompl/xInfComp'), text(inf, 'xOutInf')].filter(Boolean).join('\n'),
    };
  } finally {
    doc.dispose();
  }
}
