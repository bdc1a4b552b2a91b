import test from 'ava';
import {
  declaredVersion, parseSoapRequest, soapActionFault, soapAnswer, soapFault, SoapFaultError, versionMismatchFault, SOAP11_NS, SOAP12_NS,
} from '../../../../lib/sefaz/simulator/envelope.js';

const WSDL = 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeStatusServico4';
const NFE = 'http://www.portalfiscal.inf.br/nfe';
const MSG = `<consStatServ xmlns="${NFE}" versao="4.00"><tpAmb>2</tpAmb><cUF>35</cUF><xServ>STATUS</xServ></consStatServ>`;

/** What a service receives, read and disposed. */
function received(envelope: string) {
  const { version, service, message } = parseSoapRequest(envelope);
  try {
    const { root } = message.doc;
    return { version, service, text: message.text, canonical: message.canonicalText, root: `{${root.namespaceUri}}${root.name}`, elements: message.doc.find('//*').length };
  } finally {
    message.dispose();
  }
}
const inEnvelope12 = (msg: string, around = '') => `<s:Envelope xmlns:s="${SOAP12_NS}"${around}><s:Body><nfeDadosMsg xmlns="${WSDL}">${msg}</nfeDadosMsg></s:Body></s:Envelope>`;

test('parseSoapRequest reads any prefix and any placement of the namespaces, and returns the message standalone', (t) => {
  const shapes = [
    `<soap12:Envelope xmlns:soap12="${SOAP12_NS}"><soap12:Body><nfeDadosMsg xmlns="${WSDL}">${MSG}</nfeDadosMsg></soap12:Body></soap12:Envelope>`,
    `<env:Envelope xmlns:env="${SOAP12_NS}" xmlns:nfe="${WSDL}"><env:Body><nfe:nfeDadosMsg>${MSG}</nfe:nfeDadosMsg></env:Body></env:Envelope>`,
    `<Envelope xmlns="${SOAP12_NS}"><!-- x --><Body xmlns:w="${WSDL}">\n <w:nfeDadosMsg>\n${MSG}\n</w:nfeDadosMsg></Body></Envelope>`,
    `\n<s:Envelope xmlns:s="${SOAP12_NS}"><s:Header><a:Action xmlns:a="urn:a"><b>x</b></a:Action><c/></s:Header><s:Body><nfeDadosMsg xmlns="${WSDL}">${MSG}</nfeDadosMsg></s:Body></s:Envelope>\n`,
  ];
  for (const s of shapes) {
    t.deepEqual(received(s), { version: '1.2', service: 'NFeStatusServico4', text: MSG, canonical: MSG, root: `{${NFE}}consStatServ`, elements: 4 });
  }
  const s11 = `<?xml version="1.0" encoding="ISO-8859-1"?><S:Envelope xmlns:S="${SOAP11_NS}"><S:Header/><S:Body><nfeDadosMsg xmlns="${WSDL}">${MSG}</nfeDadosMsg></S:Body></S:Envelope>`;
  t.like(received(s11), { version: '1.1', service: 'NFeStatusServico4', text: MSG });
});

test('parseSoapRequest hands the message over as it arrived when it stands alone in a plain envelope', (t) => {
  // Not canonical (attribute order, spacing, a comment, a self-closed tag), self-contained: its own bytes.
  const loose = `<consStatServ versao="4.00"  xmlns="${NFE}" xmlns:x="urn:unused"><tpAmb>2</tpAmb><!-- c --><cUF>35</cUF><xServ >STATUS</xServ><e/></consStatServ>`;
  t.deepEqual(received(inEnvelope12(loose, ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"')), {
    version: '1.2', service: 'NFeStatusServico4', text: loose, elements: 5, root: `{${NFE}}consStatServ`,
    canonical: `<consStatServ xmlns="${NFE}" versao="4.00"><tpAmb>2</tpAmb><cUF>35</cUF><xServ>STATUS</xServ><e></e></consStatServ>`,
  });
});

test('parseSoapRequest re-reads the canonical form of a message that needs the envelope around it, or of an envelope of another shape', (t) => {
  const DS = 'http://www.w3.org/2000/09/xmldsig#';
  // The ds prefix of the Envelope is used inside: the canonical form declares it where it is used.
  const usesEnvelopePrefix = `<consStatServ xmlns="${NFE}" versao="4.00"><tpAmb>2</tpAmb><ds:x/></consStatServ>`;
  const declared = `<consStatServ xmlns="${NFE}" versao="4.00"><tpAmb>2</tpAmb><ds:x xmlns:ds="${DS}"></ds:x></consStatServ>`;
  t.like(received(inEnvelope12(usesEnvelopePrefix, ` xmlns:ds="${DS}"`)), { text: declared, canonical: declared, elements: 3 });
  // No default namespace of its own: nfeDadosMsg's applies, and stays.
  t.like(received(inEnvelope12('<consStatServ versao="4.00"><tpAmb>2</tpAmb></consStatServ>')), {
    text: `<consStatServ xmlns="${WSDL}" versao="4.00"><tpAmb>2</tpAmb></consStatServ>`, root: `{${WSDL}}consStatServ`,
  });
  // Something after the message, a comment before the Envelope, a second Body: the same message.
  for (const other of [
    inEnvelope12(`${MSG}<!-- after -->`),
    `<!-- before -->${inEnvelope12(MSG)}`,
    inEnvelope12(MSG).replace('</s:Body>', '</s:Body><s:Body></s:Body>'),
  ]) t.like(received(other), { text: MSG, canonical: MSG, elements: 4 });
});

test('parseSoapRequest refuses what is not an envelope with a message, keeping the version for the Fault', (t) => {
  t.throws(() => parseSoapRequest('<a>'), { instanceOf: SoapFaultError, message: /XML malformado/ });
  t.throws(() => parseSoapRequest('<Envelope/>'), { message: /Envelope SOAP/ });
  const e = t.throws(() => parseSoapRequest(`<s:Envelope xmlns:s="${SOAP11_NS}"><s:Body><nfeDadosMsg xmlns="${WSDL}"/></s:Body></s:Envelope>`)) as SoapFaultError;
  t.is(e.version, '1.1');
  t.regex(e.message, /exatamente um elemento/);
});

test('soapAnswer and soapFault write the version and content type of the request', (t) => {
  t.like(soapAnswer('1.1', 'NFeStatusServico4', '<r/>'), { contentType: 'text/xml; charset=utf-8' });
  t.regex(soapAnswer('1.2', 'NFeStatusServico4', '<r/>').body, new RegExp(`<soap:Envelope xmlns:soap="${SOAP12_NS}".*<nfeResultMsg xmlns="${WSDL}"><r/></nfeResultMsg>`));
  t.regex(soapFault('1.2', 'a < b').body, /<soap:Text xml:lang="pt">a &lt; b<\/soap:Text>/);
  t.regex(soapFault('1.1', 'x').body, /<faultcode>soap:Client<\/faultcode><faultstring>x<\/faultstring>/);
});

test('declaredVersion, soapActionFault and versionMismatchFault: the SOAP stack\'s checks before the body', (t) => {
  t.is(declaredVersion('text/xml; charset=utf-8'), '1.1');
  t.is(declaredVersion('application/soap+xml'), '1.2');
  t.is(declaredVersion(undefined), '1.2');
  const action = `${WSDL}/nfeStatusServicoNF`;
  t.is(soapActionFault(`"${action}"`, action), null);
  t.is(soapActionFault(action.toUpperCase(), action), null);
  t.like(soapActionFault(undefined, action), { message: 'Server did not recognize the value of HTTP Header SOAPAction: .', version: '1.1', code: 'Client' });
  t.like(soapActionFault('"x"', action), { message: 'Server did not recognize the value of HTTP Header SOAPAction: x.' });
  t.is(versionMismatchFault('1.2', '1.2'), null);
  t.like(versionMismatchFault('1.1', '1.2'), { version: '1.1', code: 'VersionMismatch', message: `Possible SOAP version mismatch: Envelope namespace ${SOAP12_NS} was unexpected. Expecting ${SOAP11_NS}.` });
  t.regex(soapFault('1.1', 'x', 'VersionMismatch').body, /<faultcode>soap:VersionMismatch<\/faultcode>/);
  t.regex(soapFault('1.2', 'x', 'VersionMismatch').body, /<soap:Value>soap:VersionMismatch<\/soap:Value>/);
});
