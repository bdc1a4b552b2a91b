import type { Signer } from '../sign/signer.js';
import type { CheckedDps } from './types.js';
import type { DpsContext } from './xml/context.js';
import { assembleDps, buildInfDps } from './xml/dps.js';
import { assertDpsSchema } from './xml/validate.js';

export interface SignedDps {
  /** The complete <DPS> document, signed and schema-valid (no XML declaration). */
  xml: string;
  /** The infDPS Id (TSIdDPS). */
  id: string;
  /** Base64 SHA-1 of the canonical infDPS. */
  digestValue: string;
}

/** Called as each step of buildSignedDps ends, for timing by the caller; lib reads no clock. */
export type DpsBuildStep = 'build' | 'sign' | 'xsd';

/**
 * The one entry point from a checked DPS to the document to transmit: build infDPS canonically,
 * sign it (XMLDSig enveloped, C14N 1.0, RSA-SHA1, SHA-1 digest, X509Certificate — the signature
 * the national standard's DPS samples carry; lib/sign/signer.ts), assemble the DPS and check it
 * against the official DPS_v1.01.xsd. Throws XML_FORA_DO_ESQUEMA; nothing it refuses is ever
 * transmitted.
 */
export function buildSignedDps(dps: CheckedDps, ctx: DpsContext, signer: Signer, onStep?: (step: DpsBuildStep) => void): SignedDps {
  const infDps = buildInfDps(dps, ctx);
  onStep?.('build');
  const { signatureXml, digestValue } = signer.sign(infDps.canonical, infDps.id);
  const xml = assembleDps(infDps, signatureXml);
  onStep?.('sign');
  assertDpsSchema(xml);
  onStep?.('xsd');
  return { xml, id: infDps.id, digestValue };
}
