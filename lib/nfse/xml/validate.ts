import { DomainError } from '../../errors/index.js';
import { validateXml } from '../../xml/xsd.js';
import { NFSE_SCHEMAS } from '../../xml/schemas.js';

/**
 * The generated DPS against the official DPS_v1.01.xsd, with the validator compiled once per
 * process (lib/xml/xsd.ts; each parsed document disposed). A failure is a bug in our builder, never
 * the caller's: the DPS is refused before transmission with XML_FORA_DO_ESQUEMA and libxml2's
 * messages, which the service logs.
 */
export function assertDpsSchema(xml: string): void {
  const result = validateXml(NFSE_SCHEMAS.dps, xml);
  if (!result.valid) throw new DomainError('XML_FORA_DO_ESQUEMA', { errors: result.errors.map((message) => ({ field: 'xml', message })) });
}
