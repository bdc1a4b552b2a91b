import { DomainError } from '../../errors/index.js';
import { validateXml } from '../../xml/xsd.js';
import { NFE_SCHEMAS } from '../../xml/schemas.js';

/**
 * The generated NFe against the official nfe_v4.00.xsd (PL_010 v1.30), with the validator
 * compiled once per process (lib/xml/xsd.ts). A failure is a bug in our builder, never the
 * caller's: the document is refused before transmission with XML_FORA_DO_ESQUEMA and libxml2's
 * messages in `details.esquema` (API.md, Errors > Envelope: `errors[]` is only for payload
 * validation, a 400), which the service logs.
 */
export function assertNfeSchema(xml: string): void {
  const result = validateXml(NFE_SCHEMAS.nfe, xml);
  if (!result.valid) throw new DomainError('XML_FORA_DO_ESQUEMA', { esquema: result.errors });
}
