import { createHash, createVerify, type X509Certificate } from 'node:crypto';
import { XmlDocument } from 'libxml2-wasm';
import { canonicalSubtreeAt } from '../../xml/c14n.js';
import { signedTexts } from '../../xml/signed-text.js';
import { XPathContext, type NodeRef } from '../../xml/xpath-context.js';
import {
  C14N, DS_PREFIXES, ENVELOPED, readCertificate, RSA_SHA1, RSA_SHA256, SHA1, SHA256, type CertificateReader, type ParsedText,
} from '../../xml/xmldsig.js';

/**
 * XMLDSig verification of an enveloped signature as the national standard signs (DPS, pedido de
 * registro de evento): C14N 1.0 of the referenced element and of SignedInfo, then node:crypto for
 * the digest and the RSA signature with the certificate in KeyInfo. It runs on every request the
 * simulator takes, at the SEFAZ simulator's cost (issue 18): the canonical forms are the received
 * text itself when it is provably canonical there (lib/xml/signed-text.ts; this product's signer
 * writes it so), else libxml2's C14N of the element as a node set (lib/xml/c14n.ts); every lookup
 * goes through one XPath context of compiled expressions (lib/xml/xpath-context.ts), and an Id
 * from the request is compared in JS, never put into an expression.
 *
 * Only what the layout allows is accepted: one Reference to `#Id` of a unique element, the
 * transforms enveloped-signature and C14N 1.0, RSA-SHA1 or RSA-SHA256, SHA-1 or SHA-256 digest,
 * the signature next to (not inside) the signed element. Anything else is invalid, with a reason
 * (the Complemento of E0714).
 */
export interface SignatureCheck {
  valid: boolean;
  reason?: string;
  /** The signer certificate, when KeyInfo had one that parsed. */
  certificate?: X509Certificate;
  /** Its X509Certificate text (whitespace removed): the key of a caller's per-certificate memo. */
  certificateBase64?: string;
}

const SIGNATURE_METHODS: Record<string, string> = { [RSA_SHA1]: 'RSA-SHA1', [RSA_SHA256]: 'RSA-SHA256' };
const DIGEST_METHODS: Record<string, string> = { [SHA1]: 'sha1', [SHA256]: 'sha256' };
const ID = /^[A-Za-z_][\w.-]*$/;

const invalid = (reason: string): SignatureCheck => ({ valid: false, reason });
const b64 = (el: NodeRef | null) => (el === null ? '' : XPathContext.content(el)).replace(/\s+/g, '');

/**
 * Verifies the signature whose Reference points at the element with Id `id`. With the text the
 * document was parsed from (a received DPS or event), that text may spare the C14N.
 */
export function verifyEnvelopedSignature(received: XmlDocument | ParsedText, id: string, certificateOf: CertificateReader = readCertificate): SignatureCheck {
  if (!ID.test(id)) return invalid(`not an Id: ${id}`);
  const doc = received instanceof XmlDocument ? received : received.doc;
  const x = new XPathContext(doc, DS_PREFIXES);
  try {
    return check(doc, x, received instanceof XmlDocument ? null : received.text, id, certificateOf);
  } finally {
    x.dispose();
  }
}

function check(doc: XmlDocument, x: XPathContext, text: string | null, id: string, certificateOf: CertificateReader): SignatureCheck {
  /** `ds:SignedInfo/ds:Reference/@URI='#id'`, as a JS predicate over the compiled `//ds:Signature`. */
  const references = (signature: NodeRef) => x.all(signature, 'ds:SignedInfo/ds:Reference/@URI').some((uri) => XPathContext.content(uri) === `#${id}`);
  /**
   * The first `Algorithm` attribute of the element, by local name: the former check read
   * `attrs.find(name === 'Algorithm')`, and the differential test holds this one to it.
   */
  const algorithm = (el: NodeRef | null) => (el === null ? undefined : x.text(el, "@*[local-name()='Algorithm']") ?? undefined);

  // From the text when canonical there: then it also settled that one element has this Id (and,
  // with one Signature referencing it found below, that the signature is not inside it).
  const fromText = text === null ? null : signedTexts(text, id);
  let target: NodeRef | null = null;
  if (!fromText) {
    const targets = x.all(XPathContext.ref(doc), '//*[@Id]').filter((el) => x.text(el, '@Id') === id);
    if (targets.length !== 1) return invalid(`${targets.length} elements with Id ${id}`);
    target = targets[0]!;
  }
  const signatures = x.all(XPathContext.ref(doc), '//ds:Signature').filter(references);
  if (signatures.length !== 1) return invalid(`${signatures.length} signatures reference #${id}`);
  const signature = signatures[0]!;
  if (target !== null && x.all(target, './/ds:Signature').some(references)) return invalid('signature inside the signed element');
  const signedInfos = x.all(signature, 'ds:SignedInfo');
  const refs = x.all(signature, 'ds:SignedInfo/ds:Reference');
  if (!signedInfos.length || refs.length !== 1) return invalid('SignedInfo must hold exactly one Reference');
  const signedInfo = signedInfos[0]!;
  const reference = refs[0]!;
  if (algorithm(x.first(signature, 'ds:SignedInfo/ds:CanonicalizationMethod')) !== C14N) return invalid('CanonicalizationMethod is not C14N 1.0');
  const signatureAlgorithm = SIGNATURE_METHODS[algorithm(x.first(signature, 'ds:SignedInfo/ds:SignatureMethod')) ?? ''];
  if (!signatureAlgorithm) return invalid('unsupported SignatureMethod');
  const transforms = x.all(reference, 'ds:Transforms/ds:Transform').map(algorithm);
  if (!transforms.every((t) => t === ENVELOPED || t === C14N) || !transforms.includes(ENVELOPED)) return invalid('unsupported Transforms');
  const digestAlgorithm = DIGEST_METHODS[algorithm(x.first(reference, 'ds:DigestMethod')) ?? ''];
  if (!digestAlgorithm) return invalid('unsupported DigestMethod');
  const digestValue = b64(x.first(reference, 'ds:DigestValue'));
  const signatureValue = b64(x.first(signature, 'ds:SignatureValue'));
  const certB64 = b64(x.first(signature, 'ds:KeyInfo/ds:X509Data/ds:X509Certificate'));
  if (!certB64) return invalid('no X509Certificate in KeyInfo');
  let certificate: X509Certificate;
  try {
    certificate = certificateOf(certB64);
  } catch (err) {
    return invalid(`X509Certificate does not parse: ${(err as Error).message}`);
  }
  const targetC14n = fromText?.target ?? canonicalSubtreeAt(doc, target!);
  const digest = createHash(digestAlgorithm).update(targetC14n, 'utf8').digest('base64');
  if (digest !== digestValue) return { valid: false, reason: 'digest mismatch', certificate, certificateBase64: certB64 };
  // The text's SignedInfo is the one of the Reference to `#id`; the check signs the first
  // SignedInfo of the signature, the same one when there is one (the XSD allows no other).
  const signedInfoC14n = fromText && signedInfos.length === 1 ? fromText.signedInfo : canonicalSubtreeAt(doc, signedInfo);
  const ok = createVerify(signatureAlgorithm).update(signedInfoC14n, 'utf8').verify(certificate.publicKey, Buffer.from(signatureValue, 'base64'));
  return ok ? { valid: true, certificate, certificateBase64: certB64 } : { valid: false, reason: 'signature value mismatch', certificate, certificateBase64: certB64 };
}
