import { SignedXml } from 'xml-crypto';

/**
 * Test-only XMLDSig signer with xml-crypto, with the NF-e profile (MOC 4.00 §4.4: C14N 1.0,
 * RSA-SHA1, SHA-1 digest, enveloped, X509Certificate in KeyInfo). The signature is appended to the
 * root element, after the signed element (NFe, evento, inutNFe). Production signs with
 * lib/sign/signer.ts; this stands in for it on this branch.
 */
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';

export function signXml(xml: string, id: string, keyPem: string, certPem: string): string {
  const sig = new SignedXml({
    privateKey: keyPem,
    publicCert: certPem.replace(/\r\n/g, '\n'),
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
}

export function signerFor(material: { keyPem: string; certPem: string }) {
  return (xml: string, id: string) => signXml(xml, id, material.keyPem, material.certPem);
}
