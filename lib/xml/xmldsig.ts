import { X509Certificate } from 'node:crypto';
import type { XmlDocument } from 'libxml2-wasm';

/**
 * What the simulators' two XML-DSig checks share (the SEFAZ one of NF-e, lib/sefaz/simulator/
 * signature.ts; the Sefin one of DPS and events, lib/sefin/simulator/signature.ts): the algorithm
 * names (W3C xmldsig-core 1.0; RSA-SHA256 and SHA-256 from RFC 4051 / xmlenc), the document as
 * parsed with its text, and the certificate reader a caller may memoize.
 */
export const DS = 'http://www.w3.org/2000/09/xmldsig#';
/** The prefix map of the checks' XPaths (one module constant: the compiled XPaths are cached per map). */
export const DS_PREFIXES = { ds: DS } as const;
export const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const C14N_COMMENTS = `${C14N}#WithComments`;
export const ENVELOPED = `${DS}enveloped-signature`;
export const RSA_SHA1 = `${DS}rsa-sha1`;
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA1 = `${DS}sha1`;
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** A parsed document with the text it was parsed from: the text may spare the C14N (signed-text.ts). */
export interface ParsedText { doc: XmlDocument; text: string }

/** Parses the X509Certificate text; the simulators pass a memoized one (an issuer signs every document with one certificate, parsing costs ~0.6 ms). */
export type CertificateReader = (base64: string) => X509Certificate;
export const readCertificate: CertificateReader = (text) => new X509Certificate(Buffer.from(text, 'base64'));
