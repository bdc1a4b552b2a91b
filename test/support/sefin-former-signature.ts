// The Sefin simulator's signature check as it was before issue 18 (element-level C14N, XPaths
// compiled per call): the reference the differential test holds the current one to.
import { createHash, createVerify, X509Certificate } from 'node:crypto';
import { XmlC14NMode, type XmlDocument, type XmlElement } from 'libxml2-wasm';

/**
 * XMLDSig verification of an enveloped signature as the national standard signs (DPS, pedido de
 * registro de evento): libxml2's own C14N 1.0 of the referenced element and of SignedInfo, then
 * node:crypto for the digest and the RSA signature with the certificate in KeyInfo. No DOM copy,
 * no generic XPath transform engine (xml-crypto's path costs milliseconds per document): this runs
 * on every request the simulator takes.
 *
 * Only what the layout allows is accepted: one Reference to `#Id` of a unique element, the
 * transforms enveloped-signature and C14N 1.0, RSA-SHA1 or RSA-SHA256, SHA-1 or SHA-256 digest,
 * the signature next to (not inside) the signed element. Anything else is invalid, with a reason.
 */
interface SignatureCheck {
  valid: boolean;
  reason?: string;
  /** The signer certificate, when KeyInfo had one that parsed. */
  certificate?: X509Certificate;
}

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

function attr(el: XmlElement | null, name: string): string | undefined {
  return el?.attrs.find((a) => a.name === name)?.value;
}

/** Verifies the signature whose Reference points at the element with Id `id` in `doc`. */
export function formerVerifyEnvelopedSignature(doc: XmlDocument, id: string): SignatureCheck {
  if (!ID.test(id)) return { valid: false, reason: `not an Id: ${id}` };
  const targets = doc.find(`//*[@Id='${id}']`);
  if (targets.length !== 1) return { valid: false, reason: `${targets.length} elements with Id ${id}` };
  const signed = targets[0] as XmlElement;
  const signatures = doc.find(`//ds:Signature[ds:SignedInfo/ds:Reference/@URI='#${id}']`, DS) as XmlElement[];
  if (signatures.length !== 1) return { valid: false, reason: `${signatures.length} signatures reference #${id}` };
  const signature = signatures[0]!;
  if (signed.find(`.//ds:Signature[ds:SignedInfo/ds:Reference/@URI='#${id}']`, DS).length) return { valid: false, reason: 'signature inside the signed element' };
  const signedInfo = signature.get('ds:SignedInfo', DS) as XmlElement | null;
  const references = signature.find('ds:SignedInfo/ds:Reference', DS) as XmlElement[];
  if (!signedInfo || references.length !== 1) return { valid: false, reason: 'SignedInfo must hold exactly one Reference' };
  const reference = references[0]!;
  if (attr(signature.get('ds:SignedInfo/ds:CanonicalizationMethod', DS) as XmlElement | null, 'Algorithm') !== C14N) return { valid: false, reason: 'CanonicalizationMethod is not C14N 1.0' };
  const signatureAlgorithm = SIGNATURE_METHODS[attr(signature.get('ds:SignedInfo/ds:SignatureMethod', DS) as XmlElement | null, 'Algorithm') ?? ''];
  if (!signatureAlgorithm) return { valid: false, reason: 'unsupported SignatureMethod' };
  const transforms = (reference.find('ds:Transforms/ds:Transform', DS) as XmlElement[]).map((t) => attr(t, 'Algorithm'));
  if (!transforms.every((t) => t === ENVELOPED || t === C14N) || !transforms.includes(ENVELOPED)) return { valid: false, reason: 'unsupported Transforms' };
  const digestAlgorithm = DIGEST_METHODS[attr(reference.get('ds:DigestMethod', DS) as XmlElement | null, 'Algorithm') ?? ''];
  if (!digestAlgorithm) return { valid: false, reason: 'unsupported DigestMethod' };
  const digestValue = (reference.get('ds:DigestValue', DS)?.content ?? '').replace(/\s+/g, '');
  const signatureValue = (signature.get('ds:SignatureValue', DS)?.content ?? '').replace(/\s+/g, '');
  const certB64 = (signature.get('ds:KeyInfo/ds:X509Data/ds:X509Certificate', DS)?.content ?? '').replace(/\s+/g, '');
  if (!certB64) return { valid: false, reason: 'no X509Certificate in KeyInfo' };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(certB64, 'base64'));
  } catch (err) {
    return { valid: false, reason: `X509Certificate does not parse: ${(err as Error).message}` };
  }
  const mode = { mode: XmlC14NMode.XML_C14N_1_0 };
  const digest = createHash(digestAlgorithm).update(signed.canonicalizeToString(mode), 'utf8').digest('base64');
  if (digest !== digestValue) return { valid: false, reason: 'digest mismatch', certificate };
  const ok = createVerify(signatureAlgorithm).update(signedInfo.canonicalizeToString(mode), 'utf8')
    .verify(certificate.publicKey, Buffer.from(signatureValue, 'base64'));
  return ok ? { valid: true, certificate } : { valid: false, reason: 'signature value mismatch', certificate };
}
