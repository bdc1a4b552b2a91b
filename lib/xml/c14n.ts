import { XmlC14NMode, type XmlDocument, type XmlElement } from 'libxml2-wasm';
import { XPathContext, type NodeRef } from './xpath-context.js';

/**
 * Inclusive C14N 1.0 of one element's subtree (with the namespaces it inherits), as XMLDSig digests
 * it. Asked of the document with the element as a node set: libxml2-wasm's per-element helper
 * (`el.canonicalizeToString`) builds a JS wrapper for every node libxml2 asks about and costs about
 * three times as much, on every DPS and event the Sefin simulator receives.
 */
export function canonicalSubtree(doc: XmlDocument, el: XmlElement, withComments = false): string {
  return doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0, withComments, nodeSet: new Set([el]) });
}

/** canonicalSubtree of an element held as a libxml2 pointer (xpath-context.ts). */
export function canonicalSubtreeAt(doc: XmlDocument, el: NodeRef, withComments = false): string {
  return canonicalSubtree(doc, XPathContext.wrap(el) as XmlElement, withComments);
}
