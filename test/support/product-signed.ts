import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { createSigner } from '../../lib/sign/signer.js';
import { sampleNfe, type SampleOptions } from './sample-nfe.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';

/**
 * A sample note (sample-nfe.ts, signed there by xml-crypto) signed again the way this product
 * signs (lib/sign/signer.ts over lib/xml/writer.ts output): infNFe and the Signature in canonical
 * form, as a partner on this API sends them.
 */
export function productSignedNfe(o: SampleOptions): { xml: string; accessKey: string; id: string } {
  const n = sampleNfe(o);
  const id = `NFe${n.accessKey}`;
  const doc = XmlDocument.fromString(n.xml);
  let canonical: string;
  try {
    const infNFe = doc.get('//*[local-name()="infNFe"]') as XmlElement;
    canonical = doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0, nodeSet: new Set([infNFe]) });
  } finally {
    doc.dispose();
  }
  const signer = createSigner({ issuerId: 'test', fingerprint: `product-signed:${o.certPem.length}:${o.certPem.slice(-60)}`, keyPem: o.keyPem, certPem: o.certPem, chainPem: [], notAfter: '2099-01-01' });
  const { signatureXml } = signer.sign(canonical, id);
  return { xml: `<NFe xmlns="${NFE}">${canonical.replace(`<infNFe xmlns="${NFE}" `, '<infNFe ')}${signatureXml}</NFe>`, accessKey: n.accessKey, id };
}
