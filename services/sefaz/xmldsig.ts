import type { SigningMaterial } from '../../lib/issuer/types.js';
import type { SignFn } from '../../lib/sefaz/messages.js';
import { createSigner } from '../../lib/sign/signer.js';

const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';

/**
 * Signer for the signed messages this service writes (evento, inutNFe), with the same fast
 * signer as the NF-e: enveloped XMLDSig of the element carrying `Id`, C14N 1.0 / RSA-SHA1 / SHA-1,
 * Signature placed right after that element. The message builders (lib/sefaz/messages.ts) write
 * canonical XML by construction under a root in the NF-e namespace, so the element's canonical
 * form is its text with the inherited default namespace declared, as C14N puts it.
 */
export function signerFor(material: SigningMaterial): SignFn {
  const signer = createSigner(material);
  return (xml, id) => {
    const idAt = xml.indexOf(` Id="${id}"`);
    if (idAt < 0) throw new Error(`no element with Id ${id} to sign`);
    const start = xml.lastIndexOf('<', idAt);
    const name = /^<([A-Za-z][\w.-]*)/.exec(xml.slice(start))?.[1];
    if (!name) throw new Error('malformed element to sign');
    const closeTag = `</${name}>`;
    const end = xml.indexOf(closeTag, idAt) + closeTag.length;
    if (end < closeTag.length) throw new Error(`element ${name} is not closed`);
    const element = xml.slice(start, end);
    const canonical = `<${name} xmlns="${NFE_NS}"${element.slice(name.length + 1)}`;
    const { signatureXml } = signer.sign(canonical, id);
    return xml.slice(0, end) + signatureXml + xml.slice(end);
  };
}
