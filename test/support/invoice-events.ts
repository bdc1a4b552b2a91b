/**
 * The fields every invoice event's `data` carries beside the spec's (issue 21, item 7): the issuer,
 * its CNPJ (from the access key), the protocol and the API paths of the note. Written out here, not
 * taken from lib/, so a test fails when the payload changes.
 */
export function invoiceContext(doc: { id: string; model: string; issuerId: string; accessKey: string; protocol: string | null }) {
  const self = `/v1/${doc.model === '65' ? 'nfce' : 'nfe'}/${doc.id}`;
  const printable = doc.model === '65' ? 'danfce' : 'danfe';
  return {
    issuerId: doc.issuerId,
    cnpj: doc.accessKey.slice(6, 20),
    links: { self, xml: `${self}/xml`, eventos: `${self}/eventos`, danfe: `${self}/${printable}.pdf`, danfeHtml: `${self}/${printable}.html` },
    protocol: doc.protocol,
  };
}
