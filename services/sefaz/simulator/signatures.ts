import type { XmlDocument } from 'libxml2-wasm';
import { verifyEnvelopedSignature } from '../../../lib/sefaz/simulator/signature.js';
import { judgeSigner } from '../../../lib/sefaz/simulator/signer-certificate.js';
import type { SimulatorCStat } from '../../../lib/sefaz/simulator/codes.js';
import type { ParsedText } from '../../../lib/xml/xmldsig.js';
import type { SignerCertificates } from './signer-certificates.js';

/**
 * The signature and signing-certificate checks of the SEFAZ simulator, with the parsed
 * certificates (and their CNPJ and chain verdict) kept per X509Certificate text by the
 * simulator's SignerCertificates, which the Sefin routes share.
 */
export interface SignatureVerdict {
  /** 290/297/298: the signature itself (290: its certificate cannot be read). */
  signatureCStat: 290 | 297 | 298 | null;
  /** 291-295: the signing certificate. */
  signerCStat: SimulatorCStat | null;
  signerCnpj: string | null;
  /** Why, in English, for the log and the inspection route. */
  reason?: string;
}

export class SignatureChecker {
  constructor(private readonly certificates: SignerCertificates) {}

  check(xml: string | XmlDocument | ParsedText, id: string, now: Date): SignatureVerdict {
    const { certificates } = this;
    const sig = verifyEnvelopedSignature(xml, id, certificates.certificate);
    if (!sig.ok) return { signatureCStat: sig.cStat, signerCStat: null, signerCnpj: null, reason: sig.reason };
    // The certificate the signature was checked with (parsed from the same text).
    const text = sig.certificateBase64;
    const cnpj = certificates.cnpj(text);
    const verdict = judgeSigner(sig.certificate, { trusted: certificates.trusted, now, cnpj, chain: certificates.chain(text) });
    return verdict.ok
      ? { signatureCStat: null, signerCStat: null, signerCnpj: verdict.cnpj }
      : { signatureCStat: null, signerCStat: verdict.cStat, signerCnpj: cnpj, reason: `signing certificate refused (${verdict.cStat})` };
  }
}
