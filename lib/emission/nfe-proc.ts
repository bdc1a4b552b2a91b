/**
 * nfeProc: the distributable document, the signed NFe followed by the authority's protNFe
 * (MOC 4.00 §5.7, schema procNFe_v4.00.xsd). Both parts are kept byte for byte: the signature
 * covers the NFe exactly as transmitted.
 */
const DECLARATION = /^\s*<\?xml[^?]*\?>\s*/;

export function assembleNfeProc(signedNfeXml: string, protNFeXml: string): string {
  const nfe = signedNfeXml.replace(DECLARATION, '');
  const prot = protNFeXml.replace(DECLARATION, '');
  if (!nfe.startsWith('<NFe')) throw new Error('signed document does not start with <NFe');
  if (!prot.startsWith('<protNFe')) throw new Error('authority protocol does not start with <protNFe');
  return `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${nfe}${prot}</nfeProc>`;
}
