import { X509Certificate } from 'node:crypto';
import { certificateCnpj } from '../../../../lib/sefaz/simulator/certificate-cnpj.js';

/**
 * The signer certificates the simulated Sefin has seen, parsed once per X509Certificate text: a
 * provider signs every DPS with one certificate, and parsing it (node:crypto, then node-forge for
 * the ICP-Brasil CNPJ) cost more per DPS than the signature check itself. Bounded: the oldest
 * entry goes when it is full.
 */
interface Parsed { cert: X509Certificate; cnpj?: string | null }
const MAX_CACHED = 1_000;

export class SignerCertificates {
  private readonly cache = new Map<string, Parsed>();

  /** The certificate of this KeyInfo text (throws as X509Certificate does when it does not parse; a failure is not kept). */
  readonly certificate = (text: string): X509Certificate => this.parsed(text).cert;

  /** certificateCnpj of the certificate read from this text (see certificate-cnpj.ts). */
  cnpj(text: string): string | null {
    const p = this.parsed(text);
    if (p.cnpj === undefined) p.cnpj = certificateCnpj(p.cert.raw);
    return p.cnpj;
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
