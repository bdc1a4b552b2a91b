import { validateXml } from '../xml/xsd.js';
import { NFE_SCHEMAS } from '../xml/schemas.js';

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
