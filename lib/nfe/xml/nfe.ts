import type { CheckedNote, NoteTotals } from '../types.js';
import { raw, trusted, type XmlNode } from '../../xml/writer.js';
import type { EmissionContext } from './context.js';
import { buildIde } from './ide.js';
import { buildEmit } from './emit.js';
import { buildDest } from './dest.js';
import { buildDet } from './det.js';
import { buildTotal } from './total.js';
import { buildTransp } from './transp.js';
import { buildCobr } from './cobr.js';
import { buildPag } from './pag.js';
import { buildInfAdic } from './inf-adic.js';
import { buildInfRespTec } from './inf-resp-tec.js';

export const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
export const NFE_VERSION = '4.00';

/** infNFe in its two spellings: the bytes are identical except for the namespace declaration. */
export interface InfNFeXml {
  /** Id attribute (A03): "NFe" + access key; the signature's Reference URI is "#" + id. */
  id: string;
  /** As it sits inside <NFe xmlns=…> (namespace inherited, not repeated). */
  element: string;
  /**
   * The same element as C14N 1.0 renders it when it is the signed subset: the default namespace
   * in scope is declared on it. SHA-1 of these UTF-8 bytes is the DigestValue.
   */
  canonical: string;
}

/** Guards against a context whose key was built from other fields (a wiring bug, not a rule). */
function assertKeyMatches(ctx: EmissionContext, model: string): void {
  const k = ctx.accessKey;
  const ok = k.length === 44
    && k.slice(6, 20) === ctx.issuer.cnpj.padStart(14, '0')
    && k.slice(20, 22) === model
    && Number(k.slice(22, 25)) === ctx.serie
    && Number(k.slice(25, 34)) === ctx.numero
    && Number(k[34]) === ctx.tpEmis
    && k.slice(35, 43) === ctx.cNF;
  if (!ok) throw new RangeError(`access key ${k} does not match issuer/model/serie/numero/tpEmis/cNF of the context`);
}

/**
 * infNFe: A01, child of NFe. Children in XSD order: ide, emit, dest, det…, total, transp, cobr,
 * pag, infAdic, infRespTec. Attributes Id and versao (C14N order: "Id" < "versao").
 */
export function buildNfe(note: CheckedNote, totals: NoteTotals, ctx: EmissionContext): InfNFeXml {
  assertKeyMatches(ctx, note.model);
  const parts: XmlNode[] = [buildIde(note, ctx), buildEmit(ctx.issuer)];
  const dest = buildDest(note, ctx.tpAmb);
  if (dest) parts.push(dest);
  for (const item of note.items) parts.push(buildDet(item, note.model, ctx.tpAmb));
  parts.push(buildTotal(totals, note.approximateTax !== undefined));
  parts.push(buildTransp(note.transporte));
  const cobr = note.model === '55' ? buildCobr(note.cobranca) : undefined;
  if (cobr) parts.push(cobr);
  parts.push(buildPag(note.pagamentos, note.troco));
  parts.push(buildInfAdic(note));
  parts.push(buildInfRespTec(ctx.respTec));
  const inner = parts.join('');
  const id = `NFe${ctx.accessKey}`;
  const attrs = { Id: id, versao: NFE_VERSION };
  return {
    id,
    element: raw('infNFe', inner, attrs),
    canonical: raw('infNFe', inner, attrs, { xmlns: NFE_NS }),
  };
}

/** NFe (root): infNFe, infNFeSupl (NFC-e), Signature, with the portal namespace on the root. */
export function assembleNfe(infNFe: InfNFeXml, infNFeSupl: XmlNode | undefined, signatureXml: string): string {
  return raw('NFe', infNFe.element + (infNFeSupl ?? '') + trusted(signatureXml), undefined, { xmlns: NFE_NS });
}
