import type { XmlDocument } from 'libxml2-wasm';
import { xmlNodeGetContent, XmlNamedNodeStruct, XmlNsStruct, XmlTreeCommonStruct } from 'libxml2-wasm/lib/libxml2.mjs';
import { elementSpans, type ElementSpan } from '../xml/markup.js';
import { serializedElement, xmldomDocument } from './serialized-element.js';
import { soapInner } from './soap.js';
import { parseWellFormed } from './xml.js';

/** An element of an answer: its index in document order (the document itself is DOCUMENT). */
export type ElementRef = number & { readonly __element: unique symbol };
export const DOCUMENT = -1 as ElementRef;

interface Element {
  /** libxml2's node. */
  ptr: number;
  localName: string;
  /** Namespace URI, '' for none. */
  namespace: string;
  parent: ElementRef;
  /** Index after its last descendant: its descendants are the elements between. */
  end: number;
}

const ELEMENT_NODE = 1;

/**
 * An authority answer parsed once (issue 18): libxml2 judges it (strict, where xmldom recovers),
 * one walk of its tree lists the elements in document order with their names, and the parsers
 * look fields up in that list; a field's text comes from libxml2 (xmlNodeGetContent, the DOM's
 * textContent). XPath would cost more than the parse for the dozen lookups of an answer. Elements
 * whose text a result carries are taken from the received text (serialized-element.ts), whose
 * element spans are in the same order.
 *
 * Reads libxml2-wasm's node structs, as lib/xml/xpath-context.ts does. Holds wasm
 * memory: whoever reads it disposes it.
 */
export class AuthorityAnswer {
  readonly root = 0 as ElementRef;
  #doc: XmlDocument;
  #elements: Element[];
  #spans: ElementSpan[] | null | undefined;
  #disposed = false;

  private constructor(readonly text: string, doc: XmlDocument) {
    this.#doc = doc;
    this.#elements = elementsOf((doc as unknown as { _ptr: number })._ptr);
  }

  /** The message of an answer (inside nfeResultMsg when it is an envelope), parsed; throws when unreadable. */
  static read(xml: string): AuthorityAnswer {
    const text = /<(?:[\w.-]+:)?Envelope\b/.test(xml) ? soapInner(xml, 'nfeResultMsg') : xml;
    const doc = parseWellFormed(text);
    try {
      // xmldom refused a DOCTYPE's entities, which libxml2 accepts: refused as before.
      if (text.includes('<!DOCTYPE')) xmldomDocument(text);
      return new AuthorityAnswer(text, doc);
    } catch (err) {
      doc.dispose();
      throw err;
    }
  }

  get elementCount(): number {
    return this.#elements.length;
  }

  /** Local name and namespace URI ('' for none) of an element. */
  nameOf(el: ElementRef): { localName: string; namespace: string } {
    const { localName, namespace } = this.#element(el);
    return { localName, namespace };
  }

  /** The first descendant (document order) with this local name and namespace, as getElementsByTagNameNS. */
  descendant(from: ElementRef, localName: string, namespace: string): ElementRef | null {
    const end = from === DOCUMENT ? this.#elements.length : this.#element(from).end;
    for (let i = from + 1; i < end; i++) {
      const e = this.#elements[i]!;
      if (e.localName === localName && e.namespace === namespace) return i as ElementRef;
    }
    return null;
  }

  /** The child elements with this local name, of any namespace, in document order. */
  children(from: ElementRef, localName: string): ElementRef[] {
    const out: ElementRef[] = [];
    const end = from === DOCUMENT ? this.#elements.length : this.#element(from).end;
    for (let i = from + 1; i < end; i++) {
      const e = this.#elements[i]!;
      if (e.parent === from && e.localName === localName) out.push(i as ElementRef);
    }
    return out;
  }

  /** An element's text content (its descendants' text, comments left out), as the DOM's textContent. */
  content(el: ElementRef): string {
    return xmlNodeGetContent(this.#element(el).ptr);
  }

  /** The element as the results carry it (serialized-element.ts): its received text, namespace declared. */
  serialized(el: ElementRef): string {
    const { localName, namespace } = this.#element(el);
    // null for a DOCTYPE, whose text and tree may differ: serialized by xmldom then.
    if (this.#spans === undefined) this.#spans = elementSpans(this.text);
    const span = this.#spans?.[el];
    if (span && span.name.slice(span.name.indexOf(':') + 1) !== localName) throw new Error(`element ${el} of the answer is ${span.name}, not ${localName}`);
    return serializedElement(this.text, this.#spans, el, namespace);
  }

  dispose(): void {
    this.#disposed = true;
    this.#doc.dispose();
  }

  #element(el: ElementRef): Element {
    if (this.#disposed) throw new Error('AuthorityAnswer used after dispose');
    const e = this.#elements[el];
    if (!e) throw new Error(`no element ${el} in the answer`);
    return e;
  }
}

/** The elements under libxml2's document node, in document order (entity references not entered). */
function elementsOf(docPtr: number): Element[] {
  const out: Element[] = [];
  const namespaces = new Map<number, string>();
  const walk = (ptr: number, parent: ElementRef): void => {
    for (let n = XmlTreeCommonStruct.children(ptr); n; n = XmlTreeCommonStruct.next(n)) {
      if (XmlTreeCommonStruct.type(n) !== ELEMENT_NODE) continue;
      const ns = XmlNamedNodeStruct.namespace(n);
      let namespace = ns ? namespaces.get(ns) : '';
      if (namespace === undefined) namespaces.set(ns, (namespace = XmlNsStruct.href(ns)));
      const index = out.length as ElementRef;
      const e: Element = { ptr: n, localName: XmlTreeCommonStruct.name_(n), namespace, parent, end: 0 };
      out.push(e);
      walk(n, index);
      e.end = out.length;
    }
  };
  walk(docPtr, DOCUMENT);
  return out;
}
