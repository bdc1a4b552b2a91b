import { XmlDocument } from 'libxml2-wasm';
import { xpath } from './xpath.js';

/**
 * Reading a received message (the nfeDadosMsg content) as the authority does: namespace-aware
 * (libxml2), never by regex, so a field is found whatever the prefix, and every service applies the
 * same prefix rule.
 */

/**
 * 404 (MOC 4.00 §4.2, rule of every web service): the data area must not use namespace prefixes;
 * only the XML-DSig Signature may carry its own.
 */
export function usesNamespacePrefix(xml: string | XmlDocument): boolean {
  const doc = typeof xml === 'string' ? XmlDocument.fromString(xml) : xml;
  try {
    return doc.find(xpath("//*[contains(name(), ':') and not(ancestor-or-self::ds:Signature)]")).length > 0;
  } finally {
    if (doc !== xml) doc.dispose();
  }
}

/** The text of the first element of each name in the NF-e namespace (null when absent or malformed). */
export function messageFields<K extends string>(xml: string | XmlDocument, names: readonly K[]): Record<K, string | null> {
  const out = Object.fromEntries(names.map((n) => [n, null])) as Record<K, string | null>;
  let doc: XmlDocument;
  try {
    doc = typeof xml === 'string' ? XmlDocument.fromString(xml) : xml;
  } catch {
    return out;
  }
  try {
    // Names are the handlers' own (a bounded set), so each expression is compiled once.
    for (const name of names) out[name] = doc.get(xpath(`//n:${name}`))?.content.trim() ?? null;
    return out;
  } finally {
    if (doc !== xml) doc.dispose();
  }
}

/**
 * The message parsed once for every check of a request (prefixes, fields, schema, facts,
 * signatures), or null when it is not well-formed (the schema check then reports it). The caller
 * disposes it.
 */
export function parseMessage(xml: string): XmlDocument | null {
  try {
    return XmlDocument.fromString(xml);
  } catch {
    return null;
  }
}
