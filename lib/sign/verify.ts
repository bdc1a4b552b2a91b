import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

/**
 * Independent XMLDSig verification with xml-crypto (generic C14N, not our canonical-by-construction
 * writer), using the certificate embedded in KeyInfo. Off the hot path: the tests verify every
 * generated document with it (the authority simulator has its own, cheaper libxml2 C14N check:
 * lib/sefaz/simulator/signature.ts).
 */
export interface SignatureCheck {
  valid: boolean;
  /** Why it failed, in English (logged; the simulator maps failures to cStat 297). */
  reason?: string;
  /** The signer certificate as PEM, when one was found in KeyInfo. */
  certificatePem?: string;
}

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * Verifies the signature whose Reference URI points at the element with Id `#<id>`; when
 * `signedElementId` is omitted the first Signature in the document is checked.
 */
export function verifyXmlSignature(xml: string, signedElementId?: string): SignatureCheck {
  let doc: Document;
  try {
    doc = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
  } catch (err) {
    return { valid: false, reason: `malformed XML: ${(err as Error).message}` };
  }
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature'));
  const signature = signedElementId
    ? signatures.find((s) => Array.from(s.getElementsByTagNameNS(DSIG_NS, 'Reference')).some((r) => r.getAttribute('URI') === `#${signedElementId}`))
    : signatures[0];
  if (!signature) return { valid: false, reason: 'no Signature element' };
  const keyInfo = signature.getElementsByTagNameNS(DSIG_NS, 'KeyInfo')[0] ?? null;
  const certificatePem = SignedXml.getCertFromKeyInfo(keyInfo) ?? undefined;
  if (!certificatePem) return { valid: false, reason: 'no X509Certificate in KeyInfo' };
  // No `idAttribute: 'Id'`: xml-crypto already looks for Id/ID/id, and naming it again made every
  // reference count twice and fail as a "signature wrapping attack".
  const sig = new SignedXml({ publicCert: certificatePem });
  try {
    sig.loadSignature(signature as unknown as Node);
    const valid = sig.checkSignature(xml);
    return valid ? { valid, certificatePem } : { valid, certificatePem, reason: 'signature or digest mismatch' };
  } catch (err) {
    return { valid: false, certificatePem, reason: (err as Error).message };
  }
}
