import { createHash, verify, type X509Certificate } from 'node:crypto';
import { XmlDocument } from 'libxml2-wasm';
import { canonicalSubtreeAt } from '../../xml/c14n.js';
import { signedTexts, type SignedTexts } from '../../xml/signed-text.js';
import { XPathContext, type NodeRef } from '../../xml/xpath-context.js';
import {
  C14N, C14N_COMMENTS, ENVELOPED, readCertificate, RSA_SHA1, SHA1, type CertificateReader, type ParsedText,
} from '../../xml/xmldsig.js';
import { XPATH_NS } from './xpath.js';
import { parseXml } from '../../xml/parse.js';

/**
 * The authority's XMLDSig check of a received document (MOC 4.00 §4.4: enveloped signature,
 * C14N 1.0, SHA-1 digest, RSA-SHA1, X509Certificate in KeyInfo), done as canonical XML of the
 * signed element and of SignedInfo plus node:crypto: the same check as a generic DOM/XPath
 * XMLDSig library (digest, signature value, the certificate it names) at a fraction of the cost
 * (issue 18, item 1). The canonical forms are the received text itself when it is canonical
 * already (lib/xml/signed-text.ts: this product's signer and most NF-e signers write it so), else
 * libxml2's. The certificate itself is judged by signer-certificate.ts.
 *
 * 298 when the signature does not follow the profile (algorithms, one Reference to the element,
 * its transforms), 290 when its X509Certificate is not a certificate, 297 when the digest or the
 * value does not match.
 */
export type SignatureOutcome =
  | { ok: true; certificate: X509Certificate; certificateBase64: string }
  | { ok: false; cStat: 290 | 297 | 298; reason: string };

const fail = (cStat: 290 | 297 | 298, reason: string): SignatureOutcome => ({ ok: false, cStat, reason });

const b64 = (el: NodeRef | null | undefined) => (el ? XPathContext.content(el) : '').replace(/\s+/g, '');

/** The signature's lookups, through one XPath context. */
function reader(x: XPathContext, id: string) {
  return {
    /** The only XML-DSig child `name` of `parent`, or null (none, or more than one). */
    only(parent: NodeRef, name: string): NodeRef | null {
      const found = x.all(parent, `ds:${name}`);
      return found.length === 1 ? found[0]! : null;
    },
    /** `ds:SignedInfo/ds:Reference/@URI='#id'`, the predicate of a signature over `id`. */
    references: (signature: NodeRef) => x.all(signature, 'ds:SignedInfo/ds:Reference/@URI').some((uri) => XPathContext.content(uri) === `#${id}`),
    algorithm: (el: NodeRef | null) => (el === null ? null : x.text(el, '@Algorithm')),
  };
}

/**
 * Both canonical forms by libxml2, or why the signature is outside the profile. SignedInfo first:
 * the enveloped transform may change the document. It cuts the signature out of what it signs (NF-e
 * places it beside the signed element, but one inside must go before the digest).
 */
function libxml2Canonical(
  doc: XmlDocument, x: XPathContext, at: { target: NodeRef; signedInfo: NodeRef; id: string }, o: { owned: boolean; signedInfoComments: boolean },
): { target: string; signedInfo: string } | string {
  const signedInfoC14n = canonicalSubtreeAt(doc, at.signedInfo, o.signedInfoComments);
  const inner = x.all(at.target, './/ds:Signature').filter(reader(x, at.id).references);
  // A document shared with other checks is never changed: a caller that validated it against
  // the XSD first cannot have a signature inside the signed element anyway.
  if (inner.length && !o.owned) return 'a signature inside the signed element';
  for (const el of inner) XPathContext.wrap(el).remove();
  // Without comments whatever the Transform: the same-document URI `#id` selects the element
  // "but not comments" before any transform (XMLDSig 1.0 §4.3.3.3), as .NET's SignedXml (the
  // authorities'), xml-crypto and xmlsec dereference it; #WithComments changes nothing there.
  return { target: canonicalSubtreeAt(doc, at.target, false), signedInfo: signedInfoC14n };
}

/**
 * Verifies the signature over the element whose Id is `id` (Reference URI `#id`). The document
 * comes as text, parsed, or both (then its text may spare the C14N).
 */
export function verifyEnvelopedSignature(xml: string | XmlDocument | ParsedText, id: string, certificateOf: CertificateReader = readCertificate): SignatureOutcome {
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) return fail(298, `Id "${id}" not referable`);
  let doc: XmlDocument;
  try {
    doc = typeof xml === 'string' ? parseXml(xml) : xml instanceof XmlDocument ? xml : xml.doc;
  } catch (err) {
    return fail(297, `malformed XML: ${(err as Error).message}`);
  }
  const text = typeof xml === 'string' ? xml : xml instanceof XmlDocument ? null : xml.text;
  const owned = typeof xml === 'string';
  const x = new XPathContext(doc, XPATH_NS);
  const { only, references, algorithm } = reader(x, id);
  try {
    // The canonical forms from the text when it is canonical (then it also settled the Id's uniqueness).
    const fromText = text === null ? null : signedTexts(text, id);
    // One element with this Id, or a signature-wrapping attempt. (The Id is the request's: the
    // compiled XPaths select broadly and the value is compared here.)
    let signedElement: SignedTexts | NodeRef;
    if (fromText) {
      signedElement = fromText;
    } else {
      const targets = x.all(XPathContext.ref(doc), '//*[@Id]').filter((el) => x.text(el, '@Id') === id);
      if (targets.length !== 1) return fail(298, `${targets.length} elements with Id ${id}`);
      signedElement = targets[0]!;
    }
    const signatures = x.all(XPathContext.ref(doc), '//ds:Signature').filter(references);
    if (signatures.length !== 1) return fail(298, `${signatures.length} signatures reference #${id}`);
    const signature = signatures[0]!;
    const signedInfo = only(signature, 'SignedInfo');
    const reference = signedInfo && only(signedInfo, 'Reference');
    if (!signedInfo || !reference) return fail(298, 'SignedInfo must hold exactly one Reference');
    const c14n = algorithm(only(signedInfo, 'CanonicalizationMethod'));
    if (c14n !== C14N && c14n !== C14N_COMMENTS) return fail(298, `CanonicalizationMethod ${c14n}`);
    if (algorithm(only(signedInfo, 'SignatureMethod')) !== RSA_SHA1) return fail(298, 'SignatureMethod must be rsa-sha1');
    if (algorithm(only(reference, 'DigestMethod')) !== SHA1) return fail(298, 'DigestMethod must be sha1');
    const transforms = x.all(reference, 'ds:Transforms/ds:Transform').map(algorithm);
    if (transforms.length !== 2 || transforms[0] !== ENVELOPED || (transforms[1] !== C14N && transforms[1] !== C14N_COMMENTS)) {
      return fail(298, `Transforms ${transforms.join(', ')}`);
    }
    const certText = b64(x.first(signature, 'ds:KeyInfo/ds:X509Data/ds:X509Certificate'));
    if (!certText) return fail(298, 'no X509Certificate in KeyInfo');
    let certificate: X509Certificate;
    try {
      certificate = certificateOf(certText);
    } catch {
      return fail(290, 'X509Certificate is not a certificate');
    }
    const digestValue = b64(only(reference, 'DigestValue'));
    const signatureValue = b64(only(signature, 'SignatureValue'));
    const signed = typeof signedElement === 'number' ? libxml2Canonical(doc, x, { target: signedElement, signedInfo, id }, {
      owned, signedInfoComments: c14n === C14N_COMMENTS,
    }) : signedElement;
    if (typeof signed === 'string') return fail(298, signed);
    const signedInfoC14n = signed.signedInfo;
    const digest = createHash('sha1').update(signed.target).digest('base64');
    if (digest !== digestValue) return fail(297, 'digest mismatch');
    let valid = false;
    try {
      valid = verify('sha1', Buffer.from(signedInfoC14n, 'utf8'), certificate.publicKey, Buffer.from(signatureValue, 'base64'));
    } catch (err) {
      return fail(297, `signature value unusable: ${(err as Error).message}`);
    }
    return valid ? { ok: true, certificate, certificateBase64: certText } : fail(297, 'signature value mismatch');
  } finally {
    x.dispose();
    if (owned) doc.dispose();
  }
}
