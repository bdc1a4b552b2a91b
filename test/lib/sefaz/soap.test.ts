import test from 'ava';
import { soap12, soapPayload, soapServiceOf, MalformedSoapError } from '../../../lib/sefaz/soap.js';
import { readSample } from '../../support/samples.js';

test('soap12 wraps the message in nfeDadosMsg of the service WSDL namespace with the SOAP 1.2 action', (t) => {
  const r = soap12('NFeAutorizacao4', '<?xml version="1.0"?><enviNFe/>');
  t.is(r.contentType, 'application/soap+xml; charset=utf-8; action="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4/nfeAutorizacaoLote"');
  t.true(r.body.includes('<nfeDadosMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4"><enviNFe/></nfeDadosMsg>'));
  t.true(r.body.includes('xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"'));
  t.is(soapServiceOf(r.body), 'NFeAutorizacao4');
});

test('soapPayload extracts the result message of a real authority envelope', (t) => {
  const env = readSample('sefaz/soap12_retInutNFe_response.xml');
  t.regex(soapPayload(env, 'nfeResultMsg'), /^<retInutNFe versao="4.00"/);
});

test('soapPayload refuses an envelope without the wrapper or with broken XML', (t) => {
  t.throws(() => soapPayload('<Envelope/>', 'nfeResultMsg'), { instanceOf: MalformedSoapError });
  t.throws(() => soapPayload('<x:nfeResultMsg xmlns:x="u"><a><b></a></x:nfeResultMsg>', 'nfeResultMsg'), { instanceOf: MalformedSoapError });
});
