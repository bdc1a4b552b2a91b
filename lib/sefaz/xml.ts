import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { XmlDocument } from 'libxml2-wasm';
import { NFE_NS } from './services.js';

/** Small XML helpers over @xmldom/xmldom for the authority messages. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The document, parsed by libxml2, which is strict where xmldom recovers (e.g. mismatched end tags): throws on broken XML. */
export function parseWellFormed(xml: string): XmlDocument {
  try {
    return XmlDocument.fromString(xml);
  } catch (err) {
    throw new Error(`malformed XML: ${String((err as Error).message).trim()}`);
  }
}

export function assertWellFormed(xml: string): void {
  parseWellFormed(xml).dispose();
}

export function parseXml(xml: string): Document {
  assertWellFormed(xml);
  let error: string | null = null;
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: (msg: string) => { error ??= msg; }, fatalError: (msg: string) => { error ??= msg; } } })
    .parseFromString(xml, 'text/xml') as unknown as Document;
  if (error || !doc.documentElement) throw new Error(`malformed XML: ${error ?? 'no root element'}`);
  return doc;
}

/** First descendant in the NF-e namespace with this local name. */
export function child(node: Document | Element, name: string): Element | null {
  return (node.getElementsByTagNameNS(NFE_NS, name)[0] as Element | undefined) ?? null;
}

export function text(node: Document | Element | null, name: string): string | null {
  if (!node) return null;
  const el = child(node, name);
  return el ? (el.textContent ?? '').trim() : null;
}

export function requireText(node: Document | Element | null, name: string): string {
  const v = text(node, name);
  if (v === null || v === '') throw new Error(`missing ${name}`);
  return v;
}

export function serialize(node: Node): string {
  return new XMLSerializer().serializeToString(node as any);
}

/** dhRecbto/dhEvento style: local time of Brasília (UTC−03:00, no DST since 2019), seconds precision. */
export function brasiliaDateTime(at: Date): string {
  const local = new Date(at.getTime() - 3 * 3_600_000);
  return local.toISOString().slice(0, 19) + '-03:00';
}
