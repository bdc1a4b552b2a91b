import { XmlC14NMode, XmlDocument } from 'libxml2-wasm';
import { XPathContext } from '../../xml/xpath-context.js';
import { xpath, XPATH_NS } from './xpath.js';
import { parseXml } from '../../xml/parse.js';

/**
 * Reading a received message (the nfeDadosMsg content) as the authority does: namespace-aware
 * (libxml2), never by regex, so a field is found whatever the prefix, and every service applies the
 * same prefix rule.
 */

/**
 * A message as the simulator's services receive it, parsed once per request (issue 18): the
 * document whose root is the message, and the text that document was parsed from (the message as
 * it lay in the envelope, or its canonical form when it could not be taken as it was), for the
 * checks that read bytes: the signature's canonical form, the 404 pre-check, the 214 size. Whoever
 * made it disposes it.
 */
export class ReceivedMessage {
  #canonical: string | undefined;

  constructor(readonly doc: XmlDocument, readonly text: string, canonical?: string) {
    this.#canonical = canonical;
  }

  /** The message parsed from text (well-formed, or libxml2's error is thrown). */
  static parse(text: string): ReceivedMessage {
    return new ReceivedMessage(parseXml(text), text);
  }

  /**
   * Its exclusive canonical form: the text the services kept before the message was parsed once
   * (events store its `evento` bytes in procEventoNFe, so they stay the same).
   */
  get canonicalText(): string {
    return (this.#canonical ??= this.doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_EXCLUSIVE_1_0 }));
  }

  dispose(): void {
    this.doc.dispose();
  }
}

/**
 * A prefixed element name in well-formed text: `<` then a name with a colon. Never missed (a
 * name holds no whitespace, `/` or `>`); a match in a CDATA section is a false alarm settled by XPath.
 */
const PREFIXED_START_TAG = /<[^\s!?/>:][^\s/>:]*:/;

/**
 * 404 (MOC 4.00 §4.2, rule of every web service): the data area must not use namespace prefixes;
 * only the XML-DSig Signature may carry its own. Text without any prefixed tag needs no XPath
 * (which costs a walk of the whole document building every element's name).
 */
export function usesNamespacePrefix(xml: string | ReceivedMessage): boolean {
  const msg = typeof xml === 'string' ? ReceivedMessage.parse(xml) : xml;
  try {
    if (!PREFIXED_START_TAG.test(msg.text)) return false;
    return msg.doc.find(xpath("//*[contains(name(), ':') and not(ancestor-or-self::ds:Signature)]")).length > 0;
  } finally {
    if (msg !== xml) msg.dispose();
  }
}

/** The text of the first element of each name in the NF-e namespace (null when absent or malformed). */
export function messageFields<K extends string>(xml: string | XmlDocument, names: readonly K[]): Record<K, string | null> {
  const out = Object.fromEntries(names.map((n) => [n, null])) as Record<K, string | null>;
  let doc: XmlDocument;
  try {
    doc = typeof xml === 'string' ? parseXml(xml) : xml;
  } catch {
    return out;
  }
  const x = new XPathContext(doc, XPATH_NS);
  try {
    // Names are the handlers' own (a bounded set), so each expression is compiled once.
    for (const name of names) out[name] = x.text(XPathContext.ref(doc), `//n:${name}`)?.trim() ?? null;
    return out;
  } finally {
    x.dispose();
    if (doc !== xml) doc.dispose();
  }
}

/**
 * The Id and fields of the message's first `element` (infEvento, infInut) in the NF-e namespace:
 * each field the text of the first descendant of that name, trimmed, or null; null when the message
 * has no such element. Fields of a later element of the batch are not its fields.
 */
export function elementFields<K extends string>(doc: XmlDocument, element: string, names: readonly K[]): { id: string; fields: Record<K, string | null> } | null {
  const x = new XPathContext(doc, XPATH_NS);
  try {
    // Names are the handlers' own (a bounded set), so each expression is compiled once.
    const el = x.first(XPathContext.ref(doc), `//n:${element}`);
    if (el === null) return null;
    const fields = Object.fromEntries(names.map((n) => [n, x.text(el, `descendant::n:${n}`)?.trim() ?? null])) as Record<K, string | null>;
    return { id: x.text(el, '@Id') ?? '', fields };
  } finally {
    x.dispose();
  }
}
