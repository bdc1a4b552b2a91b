import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { ElementSpan } from '../xml/markup.js';

/**
 * The text of one element of an authority answer as the results carry it (protNFe for nfeProc,
 * retEvento for procEventoNFe, retInutNFe for ProcInutNFe): what @xmldom/xmldom's XMLSerializer
 * writes for it, the output these results have always had, now without parsing the answer a
 * second time (issue 18).
 *
 * For the compact text authorities write, that output is the element's own text with, on its
 * start tag, the declaration of the default namespace it inherited: the serializer writes every
 * attribute as `name="value"` with one space before it, `<`, `>`, `&` and `"` as the predefined
 * entities, an element without children as `<a/>`, and declares the namespace the element took from
 * outside. Text that the serializer would write otherwise (other spacing or quotes, character
 * references, comments, CDATA, prefixes, `<a></a>`) is serialized by xmldom as before: rare, and
 * equal by construction. test/lib/sefaz/serialized-element.test.ts compares both on the samples.
 */

/** Unprefixed names only: a prefix may need a declaration from outside the element. */
const NAME = '[A-Za-z_][\\w.-]*';
const START_TAG = new RegExp(`<${NAME}((?: (?:xmlns:)?${NAME}="(?:[^<>&"\\t\\n\\r]|&(?:amp|lt|gt|quot);)*")*)(/?)>`, 'y');
const END_TAG = new RegExp(`</${NAME}>`, 'y');
const CHARACTER_DATA = /(?:[^<>&\r]|&(?:amp|lt|gt);)*/y;
const OWN_DEFAULT_NAMESPACE = / xmlns="/;

/**
 * What XMLSerializer writes for the element at `span` of `text` (index `index` in document order),
 * whose namespace is `namespace` ('' for none). `text` is well-formed, as libxml2 judged it; `spans`
 * are its elements (lib/xml/markup.ts), null when they could not be mapped (a DOCTYPE).
 */
export function serializedElement(text: string, spans: readonly ElementSpan[] | null, index: number, namespace: string): string {
  const span = spans?.[index];
  if (!span) return xmldomSerialized(text, index);
  const own = text.slice(span.start, span.end);
  if (!writtenAsXmldomWould(own)) return xmldomSerialized(text, index);
  const startTag = own.slice(0, span.startEnd - span.start);
  // The serializer declares the namespace of an unprefixed element that does not declare it itself.
  if (!namespace || OWN_DEFAULT_NAMESPACE.test(startTag)) return own;
  const at = startTag.length - (startTag.endsWith('/>') ? 2 : 1);
  return `${own.slice(0, at)} xmlns="${namespace}"${own.slice(at)}`;
}

/** True when serializing the element would give back its text (but for the inherited namespace). */
function writtenAsXmldomWould(xml: string): boolean {
  let pos = 0;
  let openedEmpty = false; // the last markup was a start tag and no text followed: `<a></a>` becomes `<a/>`
  while (pos < xml.length) {
    CHARACTER_DATA.lastIndex = pos;
    CHARACTER_DATA.exec(xml);
    if (CHARACTER_DATA.lastIndex > pos) openedEmpty = false;
    pos = CHARACTER_DATA.lastIndex;
    if (pos >= xml.length) break;
    const tag = xml.charCodeAt(pos + 1) === 0x2f /* / */ ? END_TAG : START_TAG;
    tag.lastIndex = pos;
    const m = tag.exec(xml);
    if (!m || (tag === END_TAG && openedEmpty)) return false;
    openedEmpty = tag === START_TAG && m[2] !== '/';
    pos = tag.lastIndex;
  }
  return true;
}

/** Today's reading of an answer with xmldom (errors as libxml2 does not report them: a DOCTYPE's entities). */
export function xmldomDocument(text: string): Document {
  let error: string | null = null;
  const record = (msg: string) => { error ??= msg; };
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: record, fatalError: record } })
    .parseFromString(text, 'text/xml') as unknown as Document;
  if (error || !doc.documentElement) throw new Error(`malformed XML: ${error ?? 'no root element'}`);
  return doc;
}

function xmldomSerialized(text: string, index: number): string {
  // Document order, as libxml2 and the element spans count.
  const stack: Element[] = [xmldomDocument(text).documentElement];
  for (let i = 0; stack.length; i++) {
    const el = stack.pop()!;
    if (i === index) return new XMLSerializer().serializeToString(el as unknown as Node);
    const children: Element[] = [];
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) children.push(n as Element);
    stack.push(...children.reverse());
  }
  throw new Error(`no element ${index} in the answer`);
}
