import { createHash, createVerify, X509Certificate } from 'node:crypto';
import type { XmlDocument, XmlElement, XmlNode } from 'libxml2-wasm';
import { canonicalSubtree } from '../../xml/c14n.js';
import { compiledXPath } from '../../xml/xpath-cache.js';

/**
 * XMLDSig verification of an enveloped signature as the national standard signs (DPS, pedido de
 * registro de evento): libxml2's own C14N 1.0 of the referenced element and of SignedInfo, then
 * node:crypto for the digest and the RSA signature with the certificate in KeyInfo. No DOM copy,
 * no generic XPath transform engine (xml-crypto's path costs milliseconds per document): this runs
 * on every request the simulator takes, so its XPaths are compiled once (an Id from the request
 * is compared in JS, never put into an expression) and the canonical forms are asked of the
 * document with a node set (lib/xml/c14n.ts).
 *
 * Only what the layout allows is accepted: one Reference to `#Id` of a unique element, the
 * transforms enveloped-signature and C14N 1.0, RSA-SHA1 or RSA-SHA256, SHA-1 or SHA-256 digest,
 * the signature next to (not inside) the signed element. Anything else is invalid, with a reason.
 */
export interface SignatureCheck {
  valid: boolean;
  reason?: string;
  /** The signer certificate, when KeyInfo had one that parsed. */
  certificate?: X509Certificate;
  /** Its X509Certificate text (whitespace removed): the key of a caller's per-certificate memo. */
  certificateBase64?: string;
}

/** Parses the X509Certificate text; the simulator passes a memoized one (an issuer signs every DPS with one certificate). */
export type CertificateReader = (base64: string) => X509Certificate;
const readCertificate: CertificateReader = (text) => new X509Certificate(Buffer.from(text, 'base64'));

const DS = { ds: 'http://www.w3.org/2000/09/xmldsig#' };
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SIGNATURE_METHODS: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': 'RSA-SHA1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'RSA-SHA256',
};
const DIGEST_METHODS: Record<string, string> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
};
const ID = /^[A-Za-z_][\w.-]*$/;

const x = (expression: string) => compiledXPath(expression, DS);
const get = (el: XmlElement, expression: string) => el.get(x(expression)) as XmlElement | null;

function attr(el: XmlElement | null, name: string): string | undefined {
  return el?.attrs.find((a) => a.name === name)?.value;
}
/** `ds:Signature[ds:SignedInfo/ds:Reference/@URI='#id']`, as a JS predicate over the compiled `//ds:Signature`. */
const references = (signature: XmlNode, id: string) => signature.find(x('ds:SignedInfo/ds:Reference/@URI')).some((uri) => uri.content === `#${id}`);
const text = (el: XmlElement | null) => (el?.content ?? '').replace(/\s+/g, '');

/** Verifies the signature whose Reference points at the element with Id `id` in `doc`. */
export function verifyEnvelopedSignature(doc: XmlDocument, id: string, certificateOf: CertificateReader = readCertificate): SignatureCheck {
  if (!ID.test(id)) return { valid: false, reason: `not an Id: ${id}` };
  const targets = doc.find(x('//*/@Id')).filter((a) => a.content === id);
  if (targets.length !== 1) return { valid: false, reason: `${targets.length} elements with Id ${id}` };
  const signed = targets[0]!.parent as XmlElement;
  const signatures = (doc.find(x('//ds:Signature')) as XmlElement[]).filter((sig) => references(sig, id));
  if (signatures.length !== 1) return { valid: false, reason: `${signatures.length} signatures reference #${id}` };
  const signature = signatures[0]!;
  if (signed.find(x('.//ds:Signature')).some((sig) => references(sig, id))) return { valid: false, reason: 'signature inside the signed element' };
  const signedInfo = get(signature, 'ds:SignedInfo');
  const refs = signature.find(x('ds:SignedInfo/ds:Reference')) as XmlElement[];
  if (!signedInfo || refs.length !== 1) return { valid: false, reason: 'SignedInfo must hold exactly one Reference' };
  const reference = refs[0]!;
  if (attr(get(signature, 'ds:SignedInfo/ds:CanonicalizationMethod'), 'Algorithm') !== C14N) return { valid: false, reason: 'CanonicalizationMethod is not C14N 1.0' };
  const signatureAlgorithm = SIGNATURE_METHODS[attr(get(signature, 'ds:SignedInfo/ds:SignatureMethod'), 'Algorithm') ?? ''];
  if (!signatureAlgorithm) return { valid: false, reason: 'unsupported SignatureMethod' };
  const transforms = (reference.find(x('ds:Transforms/ds:Transform')) as XmlElement[]).map((t) => attr(t, 'Algorithm'));
  if (!transforms.every((t) => t === ENVELOPED || t === C14N) || !transforms.includes(ENVELOPED)) return { valid: false, reason: 'unsupported Transforms' };
  const digestAlgorithm = DIGEST_METHODS[attr(get(reference, 'ds:DigestMethod'), 'Algorithm') ?? ''];
  if (!digestAlgorithm) return { valid: false, reason: 'unsupported DigestMethod' };
  const digestValue = text(get(reference, 'ds:DigestValue'));
  const signatureValue = text(get(signature, 'ds:SignatureValue'));
  const certB64 = text(get(signature, 'ds:KeyInfo/ds:X509Data/ds:X509Certificate'));
  if (!certB64) return { valid: false, reason: 'no X509Certificate in KeyInfo' };
  let certificate: X509Certificate;
  try {
    certificate = certificateOf(certB64);
  } catch (err) {
    return { valid: false, reason: `X509Certificate does not parse: ${(err as Error).message}` };
  }
  const digest = createHash(digestAlgorithm).update(canonicalSubtree(doc, signed), 'utf8').digest('base64');
  if (digest !== digestValue) return { valid: false, reason: 'digest mismatch', certificate, certificateBase64: certB64 };
  const ok = createVerify(signatureAlgorithm).update(canonicalSubtree(doc, signedInfo), 'utf8')
    .verify(certificate.publicKey, Buffer.from(signatureValue, 'base64'));
  return ok ? { valid: true, certificate, certificateBase64: certB64 } : { valid: false, reason: 'signature value mismatch', certificate, certificateBase64: certB64 };
}
