import { X509Certificate } from 'node:crypto';
import { certificateCnpj } from '../../../lib/sefaz/simulator/certificate-cnpj.js';
import { judgeChain, type ChainVerdict } from '../../../lib/sefaz/simulator/signer-certificate.js';

/**
 * The signer certificates the simulator has seen, parsed once per X509Certificate text, for both
 * authorities it simulates (the SEFAZ check of NF-e, signatures.ts; the Sefin one of DPS and
 * events, sefin/routes.ts): an issuer signs thousands of documents with one certificate, and
 * parsing it (node:crypto, then node-forge for the ICP-Brasil CNPJ) costs more than the whole
 * signature check. What is derived from a certificate is kept with it, each once asked: its CNPJ
 * and its chain verdict against the trusted CAs (fixed for the simulator's life). Bounded: the
 * oldest entry goes when it is full.
 */
interface Parsed { cert: X509Certificate; cnpj?: string | null; chain?: ChainVerdict }
const MAX_CACHED = 1_000;

export class SignerCertificates {
  /** The CAs a signing certificate must chain to (the SEFAZ rules 293/295; Sefin judges no chain). */
  readonly trusted: readonly X509Certificate[];
  private readonly cache = new Map<string, Parsed>();

  constructor(trustedCaPems: readonly string[] = []) {
    this.trusted = trustedCaPems.flatMap(splitPem).map((pem) => new X509Certificate(pem));
  }

  /** The certificate of this KeyInfo text (throws as X509Certificate does when it does not parse; a failure is not kept). */
  readonly certificate = (text: string): X509Certificate => this.parsed(text).cert;

  /** certificateCnpj of the certificate read from this text (see certificate-cnpj.ts). */
  cnpj(text: string): string | null {
    const p = this.parsed(text);
    if (p.cnpj === undefined) p.cnpj = certificateCnpj(p.cert.raw);
    return p.cnpj;
  }

  /** judgeChain of the certificate read from this text against `trusted` (its RSA check made once per certificate, not once per note). */
  chain(text: string): ChainVerdict {
    const p = this.parsed(text);
    p.chain ??= judgeChain(p.cert, this.trusted);
    return p.chain;
  }

  private parsed(text: string): Parsed {
    let p = this.cache.get(text);
    if (!p) {
      p = { cert: new X509Certificate(Buffer.from(text, 'base64')) };
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(text, p);
    }
    return p;
  }
}

function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
