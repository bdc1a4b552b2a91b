import { SignedXml } from 'xml-crypto';
import type { SigningMaterial } from '../../lib/issuer/types.js';
import type { SignFn } from '../../lib/sefaz/messages.js';

/**
 * Signer for the rare signed messages this service writes itself (events, inutilização), NF-e
 * profile: C14N 1.0, RSA-SHA1, SHA-1, enveloped, X509Certificate in KeyInfo (MOC 4.00 §4.4).
 * xml-crypto's generic path costs ~1 ms here, fine off the emission hot path.
 * TODO(merge): switch to lib/sign/signer.ts once the XML builder/signer lands.
 */
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';

export function signerFor(material: Pick<SigningMaterial, 'keyPem' | 'certPem'>): SignFn {
  return (xml, id) => {
    const sig = new SignedXml({
      privateKey: material.keyPem,
      publicCert: material.certPem.replace(/\r\n/g, '\n'),
      canonicalizationAlgorithm: C14N,
      signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    });
    sig.addReference({
      xpath: `//*[@Id='${id}']`,
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', C14N],
      digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
    });
    sig.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
    return sig.getSignedXml();
  };
}
