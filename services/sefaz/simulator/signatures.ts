import { X509Certificate } from 'node:crypto';
import type { XmlDocument } from 'libxml2-wasm';
import { verifyEnvelopedSignature } from '../../../lib/sefaz/simulator/signature.js';
import type { ParsedText } from '../../../lib/xml/xmldsig.js';
import { judgeChain, judgeSigner, type ChainVerdict } from '../../../lib/sefaz/simulator/signer-certificate.js';
import { certificateCnpj } from '../../../lib/sefaz/simulator/certificate-cnpj.js';
import type { SimulatorCStat } from '../../../lib/sefaz/simulator/codes.js';

/**
 * The signature and signing-certificate checks of the simulator, with the parsed certificates kept
 * per X509Certificate text: an issuer signs thousands of notes with one certificate, and parsing it
 * (node:crypto, then node-forge for the ICP-Brasil CNPJ) costs more than the whole signature check.
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

/** A certificate as parsed, with its chain verdict once judged (the trusted CAs do not change). */
interface Parsed { cert: X509Certificate; cnpj: string | null; chain?: ChainVerdict }
const MAX_CACHED = 1_000;

export class SignatureChecker {
  private readonly cache = new Map<string, Parsed>();
  private readonly trusted: X509Certificate[];

  constructor(trustedCaPems: readonly string[]) {
    this.trusted = trustedCaPems.flatMap(splitPem).map((pem) => new X509Certificate(pem));
  }

  check(xml: string | XmlDocument | ParsedText, id: string, now: Date): SignatureVerdict {
    const sig = verifyEnvelopedSignature(xml, id, (text) => this.parsed(text).cert);
    if (!sig.ok) return { signatureCStat: sig.cStat, signerCStat: null, signerCnpj: null, reason: sig.reason };
    // The certificate the signature was checked with (parsed from the same text), with its chain's
    // RSA check made once per certificate, not once per note.
    const parsed = this.parsed(sig.certificateBase64);
    const { cnpj } = parsed;
    parsed.chain ??= judgeChain(parsed.cert, this.trusted);
    const verdict = judgeSigner(parsed.cert, { trusted: this.trusted, now, cnpj, chain: parsed.chain });
    return verdict.ok
      ? { signatureCStat: null, signerCStat: null, signerCnpj: verdict.cnpj }
      : { signatureCStat: null, signerCStat: verdict.cStat, signerCnpj: cnpj, reason: `signing certificate refused (${verdict.cStat})` };
  }

  private parsed(text: string): Parsed {
    let p = this.cache.get(text);
    if (!p) {
      const der = Buffer.from(text, 'base64');
      p = { cert: new X509Certificate(der), cnpj: certificateCnpj(der) };
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(text, p);
    }
    return p;
  }
}

function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
