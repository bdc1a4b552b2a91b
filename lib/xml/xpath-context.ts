import { XmlDocument, type XmlNode, type XmlXPath } from 'libxml2-wasm';
import * as nodes from 'libxml2-wasm/lib/nodes.mjs';
import {
  xmlNodeGetContent, XmlNodeSetStruct, xmlXPathCompiledEval, xmlXPathFreeContext, xmlXPathFreeObject, xmlXPathNewContext,
  XmlXPathObjectStruct, xmlXPathRegisterNs, xmlXPathSetContextNode,
} from 'libxml2-wasm/lib/libxml2.mjs';
import { compiledXPath, type Namespaces } from './xpath-cache.js';

/**
 * One XPath context for many lookups in one document (issue 18). libxml2-wasm's `get`/`find`
 * create a context and register the namespaces, copying their strings into wasm memory, on every
 * call, and wrap every node they return in a JS object: four fifths of a field lookup. Here the
 * context is made once, nodes stay libxml2 pointers (`NodeRef`), and a node's text is read with one
 * call (xmlNodeGetContent, as XmlNode.content does). The answers are those of `get`/`find` with
 * the same compiled expressions (xpath-cache.ts, with the namespace map given here: a module
 * constant, as that cache requires): the first node in document order, or all of them. Shared by
 * the SEFAZ simulator (fields, facts, signature) and the Sefin one (DPS and event signatures).
 *
 * Uses libxml2-wasm's internal pointers (`_ptr`, `_nodePtr`) and low-level bindings, as its own
 * C14N module does; test/lib/xml/xpath-context.test.ts holds it to the public API.
 * The creator disposes it (before the document).
 */
export type NodeRef = number & { readonly __node: unique symbol };

const pointerOf = (node: XmlNode | XmlDocument): number =>
  node instanceof XmlDocument ? (node as unknown as { _ptr: number })._ptr : (node as unknown as { _nodePtr: number })._nodePtr;
const compiledPointer = (x: XmlXPath): number => (x as unknown as { _ptr: number })._ptr;

export class XPathContext {
  #ptr: number;
  readonly #namespaces: Namespaces;

  /** `namespaces`: the prefixes the expressions use, a module constant (the compiled XPaths are cached per map). */
  constructor(doc: XmlDocument, namespaces: Namespaces) {
    this.#namespaces = namespaces;
    this.#ptr = xmlXPathNewContext(pointerOf(doc));
    for (const [prefix, uri] of Object.entries(namespaces)) xmlXPathRegisterNs(this.#ptr, prefix, uri);
  }

  /** The node behind a libxml2-wasm wrapper (an element, or the document for absolute paths). */
  static ref(node: XmlNode | XmlDocument): NodeRef {
    return pointerOf(node) as NodeRef;
  }

  /** Every node `expression` selects from `from`, in document order. */
  all(from: NodeRef, expression: string): NodeRef[] {
    return this.#eval(from, expression, Infinity);
  }

  /** The first node `expression` selects from `from` (document order), or null. */
  first(from: NodeRef, expression: string): NodeRef | null {
    return this.#eval(from, expression, 1)[0] ?? null;
  }

  /** The text of the first node selected (an element's text, an attribute's value), or null when none is. */
  text(from: NodeRef, expression: string): string | null {
    const node = this.first(from, expression);
    return node === null ? null : XPathContext.content(node);
  }

  /** libxml2-wasm's wrapper of a node, for its own API (C14N, removal). */
  static wrap(node: NodeRef): XmlNode {
    return (nodes as unknown as { createNode(ptr: number): XmlNode }).createNode(node);
  }

  /** A node's text: its descendants' text for an element, the value for an attribute. */
  static content(node: NodeRef): string {
    return xmlNodeGetContent(node);
  }

  dispose(): void {
    if (this.#ptr) xmlXPathFreeContext(this.#ptr);
    this.#ptr = 0;
  }

  #eval(from: NodeRef, expression: string, limit: number): NodeRef[] {
    if (!this.#ptr) throw new Error('XPathContext used after dispose');
    xmlXPathSetContextNode(from, this.#ptr);
    const result = xmlXPathCompiledEval(compiledPointer(compiledXPath(expression, this.#namespaces)), this.#ptr);
    if (!result) throw new Error(`XPath ${expression} failed`);
    try {
      if (XmlXPathObjectStruct.type(result) !== XmlXPathObjectStruct.Type.XPATH_NODESET) throw new Error(`XPath ${expression} is not a node set`);
      const set = XmlXPathObjectStruct.nodesetval(result);
      const count = set ? Math.min(XmlNodeSetStruct.nodeCount(set), limit) : 0;
      return count ? (Array.from(XmlNodeSetStruct.nodeTable(set, count)) as NodeRef[]) : [];
    } finally {
      xmlXPathFreeObject(result);
    }
  }
}
