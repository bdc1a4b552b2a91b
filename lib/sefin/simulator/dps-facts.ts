import type { XmlDocument, XmlElement } from 'libxml2-wasm';
import { compiledXPath } from '../../xml/xpath-cache.js';

/**
 * What the simulator reads from a received DPS (already schema-valid), by XPath in the national
 * namespace. Optional groups come back undefined; amounts stay decimal strings as written. The
 * expressions are fixed, so each is compiled once (lib/xml/xpath-cache.ts): ~25 lookups per DPS.
 */
export const NFSE_NS = 'http://www.sped.fazenda.gov.br/nfse';
const NS = { n: NFSE_NS };

export interface DpsFacts {
  id: string;
  versao: string;
  tpAmb: '1' | '2';
  dhEmi: string;
  serie: string;
  nDPS: string;
  dCompet: string;
  cLocEmi: string;
  prest: {
    cnpj?: string;
    cpf?: string;
    im?: string;
    xNome?: string;
    fone?: string;
    email?: string;
    end?: { xLgr: string; nro: string; xCpl?: string; xBairro: string; cMun?: string; cep?: string };
  };
  cLocPrestacao?: string;
  cPaisPrestacao?: string;
  cTribNac: string;
  cNBS?: string;
  valores: {
    vServ: string;
    vDescIncond?: string;
    vDescCond?: string;
    vDR?: string;
    tribISSQN: string;
    pAliq?: string;
    tpRetISSQN: string;
    vRetCP?: string;
    vRetIRRF?: string;
    vRetCSLL?: string;
  };
}

export function dpsFacts(doc: XmlDocument): DpsFacts {
  const root = doc.root;
  const inf = root.get(compiledXPath('n:infDPS', NS)) as XmlElement | null;
  if (!inf) throw new Error('DPS without infDPS');
  const t = (path: string) => inf.get(compiledXPath(path, NS))?.content;
  const req = (path: string) => {
    const v = t(path);
    if (v === undefined) throw new Error(`DPS without ${path}`);
    return v;
  };
  const endNac = inf.get(compiledXPath('n:prest/n:end', NS)) ? {
    xLgr: req('n:prest/n:end/n:xLgr'), nro: req('n:prest/n:end/n:nro'), xCpl: t('n:prest/n:end/n:xCpl'), xBairro: req('n:prest/n:end/n:xBairro'),
    cMun: t('n:prest/n:end/n:endNac/n:cMun'), cep: t('n:prest/n:end/n:endNac/n:CEP'),
  } : undefined;
  return {
    id: inf.attrs.find((a) => a.name === 'Id')?.value ?? '',
    versao: root.attrs.find((a) => a.name === 'versao')?.value ?? '',
    tpAmb: req('n:tpAmb') === '1' ? '1' : '2',
    dhEmi: req('n:dhEmi'),
    serie: req('n:serie'),
    nDPS: req('n:nDPS'),
    dCompet: req('n:dCompet'),
    cLocEmi: req('n:cLocEmi'),
    prest: {
      cnpj: t('n:prest/n:CNPJ'), cpf: t('n:prest/n:CPF'), im: t('n:prest/n:IM'), xNome: t('n:prest/n:xNome'),
      fone: t('n:prest/n:fone'), email: t('n:prest/n:email'), end: endNac,
    },
    cLocPrestacao: t('n:serv/n:locPrest/n:cLocPrestacao'),
    cPaisPrestacao: t('n:serv/n:locPrest/n:cPaisPrestacao'),
    cTribNac: req('n:serv/n:cServ/n:cTribNac'),
    cNBS: t('n:serv/n:cServ/n:cNBS'),
    valores: {
      vServ: req('n:valores/n:vServPrest/n:vServ'),
      vDescIncond: t('n:valores/n:vDescCondIncond/n:vDescIncond'),
      vDescCond: t('n:valores/n:vDescCondIncond/n:vDescCond'),
      vDR: t('n:valores/n:vDedRed/n:vDR'),
      tribISSQN: req('n:valores/n:trib/n:tribMun/n:tribISSQN'),
      pAliq: t('n:valores/n:trib/n:tribMun/n:pAliq'),
      tpRetISSQN: t('n:valores/n:trib/n:tribMun/n:tpRetISSQN') ?? '1',
      vRetCP: t('n:valores/n:trib/n:tribFed/n:vRetCP'),
      vRetIRRF: t('n:valores/n:trib/n:tribFed/n:vRetIRRF'),
      vRetCSLL: t('n:valores/n:trib/n:tribFed/n:vRetCSLL'),
    },
  };
}
