import { createHash, createPrivateKey, createSign, sign as signInPool, type KeyObject } from 'node:crypto';
import type { SigningMaterial } from '../issuer/types.js';
import { escapeAttr } from '../xml/writer.js';

/**
 * XMLDSig enveloped signature as the NF-e schemas demand (xmldsig-core-schema_v1.01.xsd: C14N
 * 1.0, RSA-SHA1, SHA-1 digest, one Reference with the enveloped-signature and C14N transforms,
 * X509Certificate in KeyInfo), computed with node:crypto over canonical bytes.
 *
 * The signed element arrives already canonical (lib/xml/writer.ts writes C14N by construction),
 * so the digest is SHA-1 of its UTF-8 bytes; the enveloped-signature transform removes nothing
 * because the Signature is the element's sibling, not its child. SignedInfo is written here in
 * canonical form too: as the signed subset it carries the xmldsig namespace declaration, and in
 * the document it inherits it from <Signature>, the only difference between the two spellings.
 */
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';

export interface SignatureResult {
  /** <Signature xmlns="…xmldsig#">…</Signature>, ready to follow the signed element. */
  signatureXml: string;
  /** Base64 SHA-1 of the canonical signed element (also the NFC-e offline QR's digVal). */
  digestValue: string;
}

export interface Signer {
  readonly issuerId: string;
  readonly fingerprint: string;
  /**
   * Signs `canonicalElement` (the signed element as C14N renders it as a subset, namespace
   * declared on it) whose Id attribute is `id`.
   */
  sign(canonicalElement: string, id: string): SignatureResult;
  /**
   * `sign`, byte for byte, with the private-key operation run in libuv's thread pool (node:crypto's
   * `sign` given a callback): the caller's thread goes on with other requests meanwhile, and the
   * signatures of notes numbered together run side by side. On the emission's hot path the RSA
   * operation is the largest single cost of a note (issue 18).
   */
  signAsync(canonicalElement: string, id: string): Promise<SignatureResult>;
  /**
   * The Signature `sign` would write for this element, with a SignatureValue of the same length
   * that is not a signature (no private-key operation): what a schema check of a draft needs
   * (lib/nfe/document.ts draftNfe). Never transmitted.
   */
  shape(canonicalElement: string, id: string): SignatureResult;
}

function signedInfo(id: string, digestValue: string, declareNs: boolean): string {
  return (declareNs ? `<SignedInfo xmlns="${DSIG_NS}">` : '<SignedInfo>')
    + `<CanonicalizationMethod Algorithm="${C14N}"></CanonicalizationMethod>`
    + `<SignatureMethod Algorithm="${DSIG_NS}rsa-sha1"></SignatureMethod>`
    + `<Reference URI="#${id}"><Transforms>`
    + `<Transform Algorithm="${DSIG_NS}enveloped-signature"></Transform>`
    + `<Transform Algorithm="${C14N}"></Transform>`
    + `</Transforms><DigestMethod Algorithm="${DSIG_NS}sha1"></DigestMethod>`
    + `<DigestValue>${digestValue}</DigestValue></Reference></SignedInfo>`;
}

/** Base64 body of a PEM certificate, without armour and line breaks (X509Certificate content). */
export function certificateBase64(certPem: string): string {
  const m = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(certPem);
  if (!m) throw new RangeError('certPem holds no certificate');
  return m[1].replace(/\s+/g, '');
}

const ID_PATTERN = /^[A-Za-z_][\w.-]*$/;

function makeSigner(material: SigningMaterial): Signer {
  const key: KeyObject = createPrivateKey(material.keyPem);
  const x509 = certificateBase64(material.certPem);
  const keyInfo = `<KeyInfo><X509Data><X509Certificate>${x509}</X509Certificate></X509Data></KeyInfo>`;
  // An RSA signature is as long as the modulus: the placeholder of `shape` has the real one's length.
  const placeholder = Buffer.alloc((key.asymmetricKeyDetails?.modulusLength ?? 2048) / 8).toString('base64');
  const digestOf = (canonicalElement: string, id: string) => {
    // The Id goes unescaped into an attribute: it is an xs:ID of the layout (e.g. NFe + 44 digits).
    if (!ID_PATTERN.test(id)) throw new RangeError(`invalid Id for a signature reference: ${id}`);
    return createHash('sha1').update(canonicalElement, 'utf8').digest('base64');
  };
  const signature = (id: string, digestValue: string, signatureValue: string): SignatureResult => ({
    digestValue,
    signatureXml: `<Signature xmlns="${DSIG_NS}">${signedInfo(id, digestValue, false)}`
      + `<SignatureValue>${signatureValue}</SignatureValue>${keyInfo}</Signature>`,
  });
  return {
    issuerId: material.issuerId,
    fingerprint: material.fingerprint,
    sign(canonicalElement: string, id: string): SignatureResult {
      const digestValue = digestOf(canonicalElement, id);
      return signature(id, digestValue, createSign('RSA-SHA1').update(signedInfo(id, digestValue, true), 'utf8').sign(key, 'base64'));
    },
    signAsync(canonicalElement: string, id: string): Promise<SignatureResult> {
      const digestValue = digestOf(canonicalElement, id);
      const signed = Buffer.from(signedInfo(id, digestValue, true), 'utf8');
      // PKCS#1 v1.5 with SHA-1, as createSign('RSA-SHA1') (an RSA key's default padding).
      return new Promise((resolve, reject) => signInPool('sha1', signed, key, (err, value) => (err ? reject(err) : resolve(signature(id, digestValue, value.toString('base64'))))));
    },
    shape(canonicalElement: string, id: string): SignatureResult {
      return signature(id, digestOf(canonicalElement, id), placeholder);
    },
  };
}

/**
 * Key objects are parsed once per certificate and cached by fingerprint (replacing a certificate
 * changes it). Bounded so a process serving many issuers does not grow without limit.
 */
const CACHE_LIMIT = 1000;
const cache = new Map<string, Signer>();

export function createSigner(material: SigningMaterial): Signer {
  let signer = cache.get(material.fingerprint);
  if (signer) {
    cache.delete(material.fingerprint); // refresh its position (LRU)
  } else {
    signer = makeSigner(material);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  }
  cache.set(material.fingerprint, signer);
  return signer;
}

/**
 * Generic enveloped signature for any DF-e message whose signed child has an Id (infInut,
 * infEvento…): give the child's name, attributes and canonical content and the namespace of its
 * parent; get the child as it sits in the document plus the Signature that follows it.
 * Attributes must be unqualified; they are sorted in C14N order here.
 */
export function signEnveloped(
  signer: Signer,
  element: { name: string; attrs: Readonly<Record<string, string>>; innerXml: string; ns: string; idAttribute?: string },
): { elementXml: string; signatureXml: string; digestValue: string } {
  const names = Object.keys(element.attrs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let attrs = '';
  for (const n of names) attrs += ` ${n}="${escapeAttr(element.attrs[n])}"`;
  const id = element.attrs[element.idAttribute ?? 'Id'];
  if (!id) throw new RangeError('signed element needs an Id attribute');
  const close = `>${element.innerXml}</${element.name}>`;
  const canonical = `<${element.name} xmlns="${element.ns}"${attrs}${close}`;
  const { signatureXml, digestValue } = signer.sign(canonical, id);
  return { elementXml: `<${element.name}${attrs}${close}`, signatureXml, digestValue };
}
