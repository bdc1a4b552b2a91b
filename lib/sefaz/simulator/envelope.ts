import { XmlC14NMode, XmlDocument, XmlElement, type XmlTreeNode } from 'libxml2-wasm';
import { stripXmlDeclaration } from '../soap.js';
import { WSDL_NS_BASE } from '../services.js';
import { escapeXml } from '../xml.js';
import { ReceivedMessage } from './message.js';
import { messageRegion } from './message-region.js';
import { parseXml } from '../../xml/parse.js';

/**
 * The SOAP envelope as the authority reads it: namespace-aware (libxml2), so any prefix (`soap:`,
 * `soap12:`, `env:`, `S:`, none) and any place the namespaces are declared (on nfeDadosMsg, on
 * Body, on Envelope, inherited) are the same message; comments and whitespace between elements are
 * ignored. SOAP 1.1 and 1.2 are told apart by the Envelope namespace, and the answer is written in
 * the version of the request (issue 19, items 1-2).
 */
export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

export type SoapVersion = '1.1' | '1.2';

export interface SoapRequestMessage {
  version: SoapVersion;
  /** The service named by the nfeDadosMsg namespace (…/nfe/wsdl/<Service>); not yet checked. */
  service: string;
  /**
   * The message inside nfeDadosMsg as a standalone document, the caller's to dispose. Usually the
   * parsed envelope itself with the message as its root, and the message's text as it arrived
   * (message-region.ts); otherwise (an envelope of another shape, a message using the envelope's
   * namespaces) its exclusive canonical form, which carries the namespaces the message uses
   * wherever they were declared and drops the envelope's, parsed again. Signatures inside verify
   * either way: their C14N of the signed element is the same bytes.
   */
  message: ReceivedMessage;
}

/** Client: the request is wrong (1.2 `Sender`); VersionMismatch: the envelope is of the other SOAP version. */
export type SoapFaultCode = 'Client' | 'VersionMismatch';

/** A request the authority's SOAP stack refuses with a Fault (HTTP 500) before any business rule. */
export class SoapFaultError extends Error {
  constructor(message: string, readonly version: SoapVersion = '1.2', readonly code: SoapFaultCode = 'Client') {
    super(message);
    this.name = 'SoapFaultError';
  }
}

/**
 * The SOAP binding the request's Content-Type names, which is the one the authority's stack (ASP.NET
 * .asmx, Axis, Metro) answers in: `text/xml` is SOAP 1.1, `application/soap+xml` SOAP 1.2.
 */
export function declaredVersion(contentType: string | undefined): SoapVersion {
  return /^\s*text\/xml/i.test(contentType ?? '') ? '1.1' : '1.2';
}

/**
 * SOAP 1.1 routes by the SOAPAction header, before the body is read: the .asmx services fault a
 * missing or foreign action with ASP.NET's own text. Quotes are optional and the comparison ignores
 * case (the authorities' WSDLs spell the namespace `NFe…` or `Nfe…`). SOAP 1.2 carries the action in
 * the Content-Type, optional, and any SOAPAction header there is ignored as those stacks do.
 */
export function soapActionFault(header: string | string[] | undefined, expected: string): SoapFaultError | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().replace(/^"(.*)"$/, '$1') ?? '';
  if (value.toLowerCase() === expected.toLowerCase()) return null;
  return new SoapFaultError(`Server did not recognize the value of HTTP Header SOAPAction: ${value}.`, '1.1');
}

/** The envelope's version must be the one the Content-Type declares (ASP.NET's VersionMismatch text). */
export function versionMismatchFault(declared: SoapVersion, envelope: SoapVersion): SoapFaultError | null {
  if (declared === envelope) return null;
  const [found, expecting] = declared === '1.1' ? [SOAP12_NS, SOAP11_NS] : [SOAP11_NS, SOAP12_NS];
  return new SoapFaultError(
    `Possible SOAP version mismatch: Envelope namespace ${found} was unexpected. Expecting ${expecting}.`, declared, 'VersionMismatch',
  );
}

function elementChildren(node: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let c: XmlTreeNode | null = node.firstChild; c; c = c.next) if (c instanceof XmlElement) out.push(c);
  return out;
}

export function parseSoapRequest(body: string): SoapRequestMessage {
  const text = stripXmlDeclaration(body);
  let doc: XmlDocument;
  try {
    doc = parseText(text);
  } catch (err) {
    throw new SoapFaultError(`XML malformado: ${String((err as Error).message).trim()}`);
  }
  let handedOver = false;
  try {
    const root = doc.root;
    if (root.name !== 'Envelope' || (root.namespaceUri !== SOAP11_NS && root.namespaceUri !== SOAP12_NS)) {
      throw new SoapFaultError('o elemento raiz não é um Envelope SOAP 1.1 ou 1.2');
    }
    const version: SoapVersion = root.namespaceUri === SOAP11_NS ? '1.1' : '1.2';
    const parts = elementChildren(root);
    const body = parts.find((e) => e.name === 'Body' && e.namespaceUri === root.namespaceUri);
    if (!body) throw new SoapFaultError('Envelope sem Body', version);
    const inBody = elementChildren(body);
    const msg = inBody[0];
    if (!msg || msg.name !== 'nfeDadosMsg' || !msg.namespaceUri.startsWith(WSDL_NS_BASE)) {
      throw new SoapFaultError('Body sem nfeDadosMsg no namespace do serviço', version);
    }
    const content = elementChildren(msg);
    if (content.length !== 1) throw new SoapFaultError('nfeDadosMsg deve conter exatamente um elemento', version);
    const service = msg.namespaceUri.slice(WSDL_NS_BASE.length);
    const message = content[0]!;
    // The Envelope holds the Body (after a Header), the Body only nfeDadosMsg: then the text's
    // tags of those names are these elements (message-region.ts).
    const plain = inBody.length === 1 && (parts.length === 1 || (parts.length === 2 && parts[0]!.name === 'Header')) && parts[parts.length - 1] === body;
    const region = plain ? messageRegion(text, {
      envelope: qualifiedName(root), body: qualifiedName(body), dadosMsg: qualifiedName(msg), message: qualifiedName(message), inherited: inheritedNamespaces(message),
    }) : null;
    if (region) {
      doc.root = message; // frees the envelope around it, none of whose namespaces the message uses
      handedOver = true;
      return { version, service, message: new ReceivedMessage(doc, text.slice(region.start, region.end)) };
    }
    // Document-level call with a node set: a third of the cost of libxml2-wasm's subtree helper.
    const canonical = doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_EXCLUSIVE_1_0, nodeSet: new Set([message]) });
    return { version, service, message: new ReceivedMessage(parseText(canonical), canonical, canonical) };
  } finally {
    if (!handedOver) doc.dispose();
  }
}

/**
 * libxml2 reads bytes: encoding the text with Buffer costs a fraction of libxml2-wasm's own
 * encoder (`fromString`). Same bytes unless the text holds a lone surrogate (never from an HTTP
 * body, always decoded from UTF-8), which `fromString` alone reports as libxml2 does.
 */
function parseText(text: string): XmlDocument {
  return LONE_SURROGATE.test(text) ? parseXml(text) : XmlDocument.fromBuffer(Buffer.from(text, 'utf8'));
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const qualifiedName = (el: XmlElement) => (el.prefix ? `${el.prefix}:${el.name}` : el.name);

/** The namespaces in scope on the message's root that only its ancestors declare. */
function inheritedNamespaces(el: XmlElement): Map<string, string> {
  const own = el.nsDeclarations;
  return new Map(Object.entries(el.namespaces).filter(([prefix]) => !(prefix in own)));
}

/**
 * The answer envelope. Prefix `soap:` as the ASP.NET authorities (SP, SVRS, …) write it, in the
 * version of the request; content type per version (SOAP 1.2: application/soap+xml, 1.1: text/xml).
 */
export function soapAnswer(version: SoapVersion, service: string, resultXml: string): { contentType: string; body: string } {
  const ns = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  return {
    contentType: version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="utf-8"?>'
      + `<soap:Envelope xmlns:soap="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`
      + `<soap:Body><nfeResultMsg xmlns="${WSDL_NS_BASE}${service}">${stripXmlDeclaration(resultXml)}</nfeResultMsg></soap:Body></soap:Envelope>`,
  };
}

/** A SOAP Fault (sent with HTTP 500, as the authorities' SOAP stacks do for an unreadable request). */
export function soapFault(version: SoapVersion, reason: string, code: SoapFaultCode = 'Client'): { contentType: string; body: string } {
  const text = escapeXml(reason);
  if (version === '1.1') {
    return {
      contentType: 'text/xml; charset=utf-8',
      body: '<?xml version="1.0" encoding="utf-8"?>'
        + `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><soap:Fault><faultcode>soap:${code}</faultcode>`
        + `<faultstring>${text}</faultstring></soap:Fault></soap:Body></soap:Envelope>`,
    };
  }
  return {
    contentType: 'application/soap+xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="utf-8"?>'
      + `<soap:Envelope xmlns:soap="${SOAP12_NS}"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:${code === 'Client' ? 'Sender' : code}</soap:Value></soap:Code>`
      + `<soap:Reason><soap:Text xml:lang="pt">${text}</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>`,
  };
}
