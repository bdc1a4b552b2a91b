import { assertWellFormed } from './xml.js';
import { SERVICES, SOAP12_NS, WSDL_NS_BASE, type SefazService } from './services.js';

/**
 * SOAP 1.2 envelopes of the NF-e 4.00 web services (MOC 4.00 §3.1: the message goes in
 * `nfeDadosMsg`, namespace of the WSDL; layout 4.00 dropped the `nfeCabecMsg` header, cUF and
 * versaoDados travel inside the message itself). No compression.
 */
export interface SoapRequest {
  body: string;
  contentType: string;
  action: string;
}

export function soapAction(service: SefazService): string {
  return `${WSDL_NS_BASE}${service}/${SERVICES[service].method}`;
}

export function stripXmlDeclaration(xml: string): string {
  return xml.replace(/^\uFEFF?\s*<\?xml[^?]*\?>\s*/, '');
}

export function soap12(service: SefazService, bodyXml: string): SoapRequest {
  const action = soapAction(service);
  const body = '<?xml version="1.0" encoding="UTF-8"?>'
    + `<soap12:Envelope xmlns:soap12="${SOAP12_NS}">`
    + `<soap12:Body><nfeDadosMsg xmlns="${WSDL_NS_BASE}${service}">${stripXmlDeclaration(bodyXml)}</nfeDadosMsg></soap12:Body>`
    + '</soap12:Envelope>';
  return { body, contentType: `application/soap+xml; charset=utf-8; action="${action}"`, action };
}

/** The answer envelope (nfeResultMsg) the simulator writes, same shape as the authority's. */
export function soap12Result(service: SefazService, resultXml: string): string {
  return '<?xml version="1.0" encoding="UTF-8"?>'
    + `<soap12:Envelope xmlns:soap12="${SOAP12_NS}">`
    + `<soap12:Body><nfeResultMsg xmlns="${WSDL_NS_BASE}${service}">${stripXmlDeclaration(resultXml)}</nfeResultMsg></soap12:Body>`
    + '</soap12:Envelope>';
}

export class MalformedSoapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedSoapError';
  }
}

/**
 * The text inside `nfeDadosMsg`/`nfeResultMsg` of an envelope, as it arrived (byte-exact, so
 * signatures inside it still verify), not yet checked for well-formedness. Throws MalformedSoapError.
 */
export function soapInner(envelope: string, wrapper: 'nfeDadosMsg' | 'nfeResultMsg'): string {
  const re = new RegExp(`<(?:[\\w.-]+:)?${wrapper}\\b[^>]*>([\\s\\S]*)</(?:[\\w.-]+:)?${wrapper}>`);
  const m = re.exec(envelope);
  if (!m) throw new MalformedSoapError(`no ${wrapper} in the SOAP envelope`);
  const inner = m[1]!.trim();
  if (!inner.startsWith('<')) throw new MalformedSoapError(`${wrapper} is empty`);
  return inner;
}

/** soapInner, checked to be well-formed XML (fail loudly rather than hand a partial document on). */
export function soapPayload(envelope: string, wrapper: 'nfeDadosMsg' | 'nfeResultMsg'): string {
  const inner = soapInner(envelope, wrapper);
  try {
    assertWellFormed(inner);
  } catch {
    throw new MalformedSoapError(`${wrapper} content is not well-formed XML`);
  }
  return inner;
}

/** Which service an envelope addresses, from the nfeDadosMsg namespace. */
export function soapServiceOf(envelope: string): string | null {
  const m = /<(?:[\w.-]+:)?nfeDadosMsg\b[^>]*xmlns="http:\/\/www\.portalfiscal\.inf\.br\/nfe\/wsdl\/([A-Za-z0-9]+)"/.exec(envelope);
  return m ? m[1]! : null;
}
