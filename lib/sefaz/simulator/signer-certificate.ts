import type { X509Certificate } from 'node:crypto';

/**
 * The authority's check of the certificate in the Signature (MOC 4.00 rules 290-295): issued by a
 * trusted chain (the sandbox CA and the configured CAs stand for ICP-Brasil), valid at reception,
 * carrying a CNPJ. No revocation list is consulted (294/296 are never answered). 213 (the CNPJ-base
 * against the emitter's) is decided by rules.ts with the CNPJ returned here.
 */
export type SignerVerdict =
  | { ok: true; cnpj: string }
  | { ok: false; cStat: 291 | 292 | 293 | 295 };

/** The chain part of the verdict: the same for a certificate every time (a caller may keep it). */
export type ChainVerdict = 'trusted' | 293 | 295;

export function judgeChain(cert: X509Certificate, trusted: readonly X509Certificate[]): ChainVerdict {
  const issuers = trusted.filter((ca) => cert.checkIssued(ca));
  // An issuer that is not among the trusted roots is foreign to the chain (295); a trusted name whose
  // key did not sign this certificate is a broken chain (293).
  if (!issuers.length) return 295;
  if (!issuers.some((ca) => cert.verify(ca.publicKey))) return 293;
  return 'trusted';
}

/** `chain`: judgeChain's answer for this certificate and `trusted`, when the caller kept it. */
export function judgeSigner(cert: X509Certificate, o: { trusted: readonly X509Certificate[]; now: Date; cnpj: string | null; chain?: ChainVerdict }): SignerVerdict {
  const chain = o.chain ?? judgeChain(cert, o.trusted);
  if (chain !== 'trusted') return { ok: false, cStat: chain };
  const now = o.now.getTime();
  if (now < Date.parse(cert.validFrom) || now > Date.parse(cert.validTo)) return { ok: false, cStat: 291 };
  if (!o.cnpj) return { ok: false, cStat: 292 };
  return { ok: true, cnpj: o.cnpj };
}
