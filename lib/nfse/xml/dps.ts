import { leaf, raw, trusted, type XmlNode } from '../../xml/writer.js';
import type { CheckedDps } from '../types.js';
import type { DpsContext } from './context.js';
import { buildIbsCbs } from './ibscbs.js';
import { buildDpsId } from './id.js';
import { buildPrest } from './prest.js';
import { buildServ } from './serv.js';
import { buildToma } from './toma.js';
import { buildValores } from './valores.js';

export const NFSE_NS = 'http://www.sped.fazenda.gov.br/nfse';
export const DPS_VERSION = '1.01';

/** infDPS in its two spellings: the bytes are identical except for the namespace declaration. */
export interface InfDpsXml {
  /** Id attribute (TSIdDPS); the signature's Reference URI is "#" + id. */
  id: string;
  /** As it sits inside <DPS xmlns=…> (namespace inherited, not repeated). */
  element: string;
  /** As C14N renders it as the signed subset (namespace declared on it): the digested bytes. */
  canonical: string;
}

/**
 * infDPS (TCInfDPS), child of DPS. Children in XSD order: tpAmb, dhEmi, verAplic, serie, nDPS,
 * dCompet, tpEmit, cLocEmi, prest, toma, serv, valores, IBSCBS. tpEmit is 1 (the provider issues);
 * cLocEmi is the issuer's municipality; dCompet is the request's `competencia` or else the date of
 * dhEmi (the competence of a service defaults to the day it is declared). The Id is the only
 * attribute.
 */
export function buildInfDps(dps: CheckedDps, ctx: DpsContext): InfDpsXml {
  const cLocEmi = ctx.issuer.endereco.codigoMunicipio;
  const id = buildDpsId(cLocEmi, ctx.issuer.cnpj, dps.serie, ctx.nDPS);
  const parts: (XmlNode | undefined)[] = [
    leaf('tpAmb', ctx.tpAmb),
    leaf('dhEmi', ctx.dhEmi),
    leaf('verAplic', ctx.verAplic),
    leaf('serie', dps.serie),
    leaf('nDPS', ctx.nDPS),
    leaf('dCompet', dps.competencia ?? ctx.dhEmi.slice(0, 10)),
    leaf('tpEmit', 1),
    leaf('cLocEmi', cLocEmi),
    buildPrest(ctx.issuer, dps.regTrib),
    buildToma(dps.tomador),
    buildServ(dps.servico, dps.servico.codigoMunicipio ?? cLocEmi, dps.informacoesComplementares),
    buildValores(dps),
    buildIbsCbs(dps.ibsCbs),
  ];
  const inner = parts.filter(Boolean).join('');
  const attrs = { Id: id };
  return { id, element: raw('infDPS', inner, attrs), canonical: raw('infDPS', inner, attrs, { xmlns: NFSE_NS }) };
}

/** DPS (root, TCDPS): infDPS then Signature, versao 1.01 and the national namespace on the root. */
export function assembleDps(infDps: InfDpsXml, signatureXml: string): string {
  return raw('DPS', infDps.element + trusted(signatureXml), { versao: DPS_VERSION }, { xmlns: NFSE_NS });
}
