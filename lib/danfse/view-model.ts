/**
 * The DANFSe view model (Documento Auxiliar da NFS-e, national layout v1.0 of the SN NFS-e): what
 * the printed document shows, read from the NFS-e XML Sefin Nacional generated (infNFSe with the
 * DPS inside). Values stay the XML's strings; formatting is the renderers' (lib/danfe/format.ts).
 */
import { XmlDocument, XmlElement } from 'libxml2-wasm';
import { NFSE_NS } from '../nfse/xml/dps.js';

export interface DanfsePartyView {
  nome: string;
  documento: string;
  im: string;
  endereco: string;
  municipio: string;
  cep: string;
  fone: string;
  email: string;
}

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
  emitente: DanfsePartyView;
  tomador: DanfsePartyView | null;
  servico: { cTribNac: string; xTribNac: string; cTribMun: string; cNBS: string; xNBS: string; localPrestacao: string; descricao: string };
  tribMun: { tribISSQN: string; retencao: string; localIncidencia: string; vBC: string; pAliq: string; vISSQN: string };
  tribFed: { irrf: string; cp: string; csll: string };
  valores: { vServ: string; vDescIncond: string; vDescCond: string; vTotalRet: string; vLiq: string };
  informacoesComplementares: string;
}

export const CONSULTA_PUBLICA_URL = 'https://www.nfse.gov.br/ConsultaPublica/?tpc=1&chave=';

const TRIB_ISSQN: Record<string, string> = { 1: 'Operação tributável', 2: 'Imunidade', 3: 'Exportação de serviço', 4: 'Não incidência' };
const RETENCAO: Record<string, string> = { 1: 'Não retido', 2: 'Retido pelo tomador', 3: 'Retido pelo intermediário' };

function first(el: XmlElement | null, name: string): XmlElement | null {
  if (!el) return null;
  for (let c = el.firstChild; c; c = c.next) {
    if (!(c instanceof XmlElement) || c.namespaceUri !== NFSE_NS) continue;
    if (c.name === name) return c;
    const deep = first(c, name);
    if (deep) return deep;
  }
  return null;
}
const text = (el: XmlElement | null, name: string): string => first(el, name)?.content.trim() ?? '';

function party(el: XmlElement | null, municipio: string): DanfsePartyView | null {
  if (!el) return null;
  const parts = [text(el, 'xLgr'), text(el, 'nro'), text(el, 'xCpl'), text(el, 'xBairro')].filter(Boolean);
  return {
    nome: text(el, 'xNome'), documento: text(el, 'CNPJ') || text(el, 'CPF') || text(el, 'NIF'), im: text(el, 'IM'),
    endereco: parts.join(', '), municipio: municipio || text(el, 'cMun'), cep: text(el, 'CEP'), fone: text(el, 'fone'), email: text(el, 'email'),
  };
}

/** Reads an NFS-e (root NFSe, layout 1.00/1.01). Throws on XML that is not one. */
export function buildDanfseView(xml: string, options: { cancelada?: boolean } = {}): DanfseView {
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (err) {
    throw new Error(`malformed XML: ${String((err as Error).message).trim()}`);
  }
  try {
    const root = doc.root;
    if (root.name !== 'NFSe' || root.namespaceUri !== NFSE_NS) throw new Error(`not an NFS-e: root ${root.name}`);
    const inf = first(root, 'infNFSe')!;
    const dps = first(inf, 'infDPS');
    const chave = (inf.attr('Id')?.value ?? '').replace(/^NFS/, '');
    const emit = first(inf, 'emit');
    const valoresNfse = first(inf, 'valores');
    const trib = first(dps, 'trib');
    return {
      chaveAcesso: chave, numero: text(inf, 'nNFSe'), dhProc: text(inf, 'dhProc'), dhEmi: text(dps, 'dhEmi'), competencia: text(dps, 'dCompet'),
      serie: text(dps, 'serie'), nDPS: text(dps, 'nDPS'), homologacao: text(dps, 'tpAmb') === '2', cancelada: options.cancelada ?? false,
      consultaUrl: CONSULTA_PUBLICA_URL + chave,
      emitente: party(emit, text(inf, 'xLocEmi'))!,
      tomador: party(first(dps, 'toma'), ''),
      servico: {
        cTribNac: text(dps, 'cTribNac'), xTribNac: text(inf, 'xTribNac'), cTribMun: text(dps, 'cTribMun'), cNBS: text(dps, 'cNBS'), xNBS: text(inf, 'xNBS'),
        localPrestacao: text(inf, 'xLocPrestacao') || text(dps, 'cLocPrestacao'), descricao: text(dps, 'xDescServ'),
      },
      tribMun: {
        tribISSQN: TRIB_ISSQN[text(trib, 'tribISSQN')] ?? '', retencao: RETENCAO[text(trib, 'tpRetISSQN')] ?? '', localIncidencia: text(inf, 'xLocIncid'),
        vBC: text(valoresNfse, 'vBC'), pAliq: text(valoresNfse, 'pAliqAplic') || text(trib, 'pAliq'), vISSQN: text(valoresNfse, 'vISSQN'),
      },
      tribFed: { irrf: text(trib, 'vRetIRRF'), cp: text(trib, 'vRetCP'), csll: text(trib, 'vRetCSLL') },
      valores: {
        vServ: text(dps, 'vServ'), vDescIncond: text(dps, 'vDescIncond'), vDescCond: text(dps, 'vDescCond'),
        vTotalRet: text(valoresNfse, 'vTotalRet'), vLiq: text(valoresNfse, 'vLiq'),
      },
      informacoesComplementares: text(dps, 'xInfComp'),
    };
  } finally {
    doc.dispose();
  }
}
