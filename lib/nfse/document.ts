import type { Signer, SignatureResult } from '../sign/signer.js';
import type { CheckedDps } from './types.js';
import type { DpsContext } from './xml/context.js';
import { assembleDps, buildInfDps, type InfDpsXml } from './xml/dps.js';
import { renumberInfDps } from './xml/renumber.js';
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
export type DpsBuildStepHook = (step: DpsBuildStep) => void;

/**
 * The one entry point from a checked DPS to the document to transmit: build infDPS canonically,
 * sign it (XMLDSig enveloped, C14N 1.0, RSA-SHA1, SHA-1 digest, X509Certificate — the signature
 * the national standard's DPS samples carry; lib/sign/signer.ts), assemble the DPS and check it
 * against the official DPS_v1.01.xsd. Throws XML_FORA_DO_ESQUEMA; nothing it refuses is ever
 * transmitted.
 */
export function buildSignedDps(dps: CheckedDps, ctx: DpsContext, signer: Signer, onStep?: DpsBuildStepHook): SignedDps {
  const infDps = buildInfDps(dps, ctx);
  onStep?.('build');
  const signed = assemble(infDps, signer.sign(infDps.canonical, infDps.id));
  onStep?.('sign');
  assertDpsSchema(signed.xml);
  onStep?.('xsd');
  return signed;
}

/**
 * The nDPS a draft is built with: the widest TSNumDPS (15 digits), the limit of a série's
 * numbering (services/emission/nfse/store.ts), so the draft's schema check sees nDPS at its longest.
 */
export const PROVISIONAL_NDPS = 999_999_999_999_999;

/**
 * buildSignedDps in two halves, so that a série's numbering lock spans neither the build nor the
 * XSD check (issue 18, as lib/nfe/document.ts draftNfe). `draftDps` builds the DPS with the
 * provisional nDPS and checks the whole DPS against the XSD with a Signature of the real one's
 * shape (Signer.shape): everything the build can refuse is refused here, before a number is
 * taken. `finishDps`, once the number is claimed, writes it into the draft (nDPS and the Id: the
 * only parts that depend on it, lib/nfse/xml/renumber.ts) and signs. Only digits of fixed
 * patterns change (nDPS, the Id, the base64 values), so the finished DPS is as schema-valid as the
 * draft, and it is byte for byte what buildSignedDps writes for that nDPS (tested).
 */
export interface DpsDraft {
  readonly dps: CheckedDps;
  /** The context the draft was built with: the caller's, nDPS PROVISIONAL_NDPS. */
  readonly ctx: DpsContext;
  readonly infDps: InfDpsXml;
}

export function draftDps(dps: CheckedDps, ctx: Omit<DpsContext, 'nDPS'>, signer: Signer, onStep?: DpsBuildStepHook): DpsDraft {
  const provisional: DpsContext = { ...ctx, nDPS: PROVISIONAL_NDPS };
  const infDps = buildInfDps(dps, provisional);
  onStep?.('build');
  assertDpsSchema(assemble(infDps, signer.shape(infDps.canonical, infDps.id)).xml);
  onStep?.('xsd');
  return { dps, ctx: provisional, infDps };
}

/** The draft numbered `nDPS` (everything else as drafted), signed off the caller's thread (Signer.signAsync). */
export async function finishDps(draft: DpsDraft, nDPS: number, signer: Signer, onStep?: DpsBuildStepHook): Promise<SignedDps> {
  const infDps = renumberInfDps(draft.infDps, draft.dps.serie, draft.ctx, { ...draft.ctx, nDPS });
  const signed = assemble(infDps, await signer.signAsync(infDps.canonical, infDps.id));
  onStep?.('sign');
  return signed;
}

function assemble(infDps: InfDpsXml, { signatureXml, digestValue }: SignatureResult): SignedDps {
  return { xml: assembleDps(infDps, signatureXml), id: infDps.id, digestValue };
}
