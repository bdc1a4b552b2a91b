import { validateXml } from '../xml/xsd.js';
import { NFE_SCHEMAS } from '../xml/schemas.js';
import { NFE_NS } from './services.js';

/**
 * Outgoing messages are checked against the official XSD before they leave (MOC 4.00 §4: the
 * authority rejects with 215/225 otherwise). A failure here is our bug, so it throws.
 */
export type OutgoingSchema = 'enviNFe' | 'consReciNFe' | 'consSitNFe' | 'consStatServ' | 'envEventoCancNFe' | 'envCCe' | 'inutNFe';

export class OutgoingSchemaError extends Error {
  constructor(readonly schema: OutgoingSchema, readonly errors: string[]) {
    super(`${schema} does not validate against the official XSD: ${errors[0] ?? 'unknown error'}`);
    this.name = 'OutgoingSchemaError';
  }
}

export function assertValid(schema: OutgoingSchema, xml: string): void {
  const r = validateXml(NFE_SCHEMAS[schema], xml);
  if (!r.valid) throw new OutgoingSchemaError(schema, r.errors);
}

const NS = NFE_NS.replace(/\./g, '\\.');
const ENVI_NFE_HEAD = new RegExp(`^<enviNFe xmlns="${NS}" versao="4\\.00"><idLote>\\d{1,15}</idLote><indSinc>[01]</indSinc><NFe xmlns="${NS}"><infNFe [^>]*>`);
const ENVI_NFE_TAIL = '</Signature></NFe></enviNFe>';

/**
 * What leaves is checked once (issue 18, item 5). Every message is validated against its XSD
 * here, except enviNFe, whose content is already checked: the envelope is written by
 * buildEnviNFe (lib/sefaz/messages.ts) from fixed tags, an idLote of 1-15 digits and indSinc 0/1,
 * so it is valid by construction; the NFe it wraps is the signed document that buildSignedNfe
 * (lib/nfe/document.ts) validated against nfe_v4.00.xsd before it was stored, and every
 * transmission sends that stored document or a rebuild that passed the same check. Validating the
 * whole lot again cost as much as the first check (~0.5 ms per 1-item note, ~30 ms at 990 items).
 * What stays checked here is the shape: one signed NFe of the layout's namespace in the envelope,
 * so nothing else can be wrapped and sent.
 */
export function assertOutgoing(schema: OutgoingSchema, xml: string): void {
  if (schema !== 'enviNFe') return assertValid(schema, xml);
  const ok = ENVI_NFE_HEAD.test(xml) && xml.endsWith(ENVI_NFE_TAIL) && xml.indexOf('<NFe', xml.indexOf('<NFe') + 1) === -1;
  if (!ok) throw new OutgoingSchemaError(schema, ['the lot must carry exactly one signed NFe (built by buildEnviNFe from a document checked by buildSignedNfe)']);
}
