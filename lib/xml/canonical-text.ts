import type { ElementSpan } from './markup.js';
import { rawAttributes } from './markup.js';

/**
 * Inclusive Canonical XML 1.0 (W3C xml-c14n-20010315, with or without comments) of one element as
 * a document subset (what an XMLDSig Reference with the C14N transform digests), read from the
 * document's text when that text is already canonical: then the canonical form is the received
 * bytes, with every namespace in scope declared on the element itself (§2.3: the subset's apex
 * carries the namespace nodes of its ancestors). Issue 18: libxml2-wasm's C14N of a subset calls
 * back into JS for every node of the document; a signer that writes canonical XML (this product's
 * lib/xml/writer.ts, most NF-e signers) is checked here with a scan of the element's text.
 *
 * Certain or nothing: any construct whose canonical form is not its own text returns null and the
 * caller canonicalizes with libxml2. Inside the element that is: a comment, PI or CDATA section;
 * an empty-element tag (`<a/>`); whitespace inside tags other than one space before each
 * attribute; single quotes; an attribute out of canonical order or in a namespace; a reference
 * other than the ones C14N writes (`&amp; &lt; &gt; &#xD;` in text, `&amp; &lt; &quot; &#x9; &#xA;
 * &#xD;` in values); `>` or CR in text; tab, LF or CR in a value (the parser normalizes them); a
 * namespace declaration already in scope with the same value (C14N drops it); non-ASCII names.
 * Outside it: an `xml:` attribute on an ancestor (C14N 1.0 copies it onto the apex) or a
 * namespace declaration whose value is not literal. The text must be the document the spans were
 * taken from, well-formed (libxml2 parsed it), and `index` an element of it.
 */
const NAME = '[A-Za-z_][A-Za-z0-9._-]*';
const QNAME = `${NAME}(?::${NAME})?`;
const VALUE = '"[^"<&\\t\\n\\r]*(?:&(?:amp|lt|quot|#x9|#xA|#xD);[^"<&\\t\\n\\r]*)*"';
const START_TAG = new RegExp(`<(${QNAME})((?: ${QNAME}=${VALUE})*)>`, 'y');
const END_TAG = new RegExp(`</(${QNAME})>`, 'y');
const ATTRIBUTE = new RegExp(` (${QNAME})="([^"]*)"`, 'g');
const TEXT = /[^<&>\r]*(?:&(?:amp|lt|gt|#xD);[^<&>\r]*)*/y;
/**
 * The quick scans (descendantsCanonical): anything needing a closer look (CR, a comment, PI or
 * CDATA, a reference other than those valid both in text and in values); then the whole text as
 * strict tags and text without `>`; then the tags that have attributes.
 */
const CLOSE_LOOK = /\r|<[!?]|&(?!amp;|lt;|#xD;)/;
const STRICT_TAGS = new RegExp(`^(?:[^<>]*(?:</${QNAME}>|<${QNAME}(?: ${QNAME}="[^"<\\t\\n\\r]*")*>))*$`);
const TAG_WITH_ATTRIBUTES = new RegExp(`<${QNAME}((?: ${QNAME}="[^"]*")+)>`, 'g');
/** A namespace name as its own attribute value: nothing C14N would escape. */
const LITERAL_URI = /^[^&<"\t\n\r]*$/;
const PREFIX = new RegExp(`^${NAME}$`);

/** Prefix → namespace name in scope ('' the default namespace; absent or '' when there is none). */
type Bindings = ReadonlyMap<string, string>;

const declaredPrefix = (name: string): string | null => (name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : null);

export function canonicalElementText(text: string, spans: readonly ElementSpan[], index: number): string | null {
  const el = spans[index];
  if (!el) return null;
  const inherited = inheritedBindings(spans, el.parent);
  if (!inherited) return null;
  START_TAG.lastIndex = el.start;
  const apex = START_TAG.exec(text);
  if (!apex || START_TAG.lastIndex !== el.startEnd) return null;
  const scope = new Map(inherited);
  const attrs: [string, string][] = [];
  for (const [, name, value] of apex[2]!.matchAll(ATTRIBUTE)) {
    const prefix = declaredPrefix(name!);
    if (prefix === null) {
      if (name!.includes(':')) return null;
      attrs.push([name!, value!]);
    } else {
      if (!declarable(prefix, value!)) return null;
      scope.set(prefix, value!);
    }
  }
  attrs.sort(([a], [b]) => (a < b ? -1 : 1));
  let tag = `<${apex[1]}`;
  for (const prefix of [...scope.keys()].sort()) {
    const uri = scope.get(prefix)!;
    if (prefix === '' && uri === '') continue; // no default namespace: nothing to write on the apex
    tag += prefix === '' ? ` xmlns="${uri}"` : ` xmlns:${prefix}="${uri}"`;
  }
  for (const [name, value] of attrs) tag += ` ${name}="${value}"`;
  return descendantsCanonical(text, el, apex[1]!, scope) ? `${tag}>${text.slice(el.startEnd, el.end)}` : null;
}

/** The namespaces the ancestors declare (outermost first, nearer ones override), or null when unusable. */
function inheritedBindings(spans: readonly ElementSpan[], parent: number): Map<string, string> | null {
  const chain: ElementSpan[] = [];
  for (let i = parent; i >= 0; i = spans[i]!.parent) chain.unshift(spans[i]!);
  const scope = new Map<string, string>();
  for (const ancestor of chain) {
    if (!ancestor.attrs.includes('xml')) continue;
    for (const [name, value] of rawAttributes(ancestor.attrs)) {
      if (name.startsWith('xml:')) return null;
      const prefix = declaredPrefix(name);
      if (prefix === null) continue;
      if (!declarable(prefix, value)) return null;
      scope.set(prefix, value);
    }
  }
  return scope;
}

/**
 * A declaration C14N writes as given and sorts as JS does: a literal value, an ASCII prefix other
 * than the reserved ones, no prefix undeclared (XML 1.0 has no `xmlns:p=""`).
 */
const declarable = (prefix: string, uri: string) => LITERAL_URI.test(uri) && (prefix === '' || (uri !== '' && PREFIX.test(prefix) && prefix !== 'xml' && prefix !== 'xmlns'));

/**
 * Whether everything after the apex's start tag up to its end tag is in canonical form already.
 * Most signed elements pass three scans of their text (no construct to look at closely, every tag
 * strict, the few tags with attributes in order); the others are walked tag by tag.
 */
function descendantsCanonical(text: string, el: ElementSpan, apexName: string, apexScope: Bindings): boolean {
  const body = text.slice(el.startEnd, el.end);
  if (!CLOSE_LOOK.test(body) && STRICT_TAGS.test(body)) {
    let plain = true;
    for (const [, attrs] of body.matchAll(TAG_WITH_ATTRIBUTES)) {
      if (attrs!.includes(' xmlns')) { plain = false; break; }
      if (!attributesCanonical(attrs!, apexScope)) return false;
    }
    if (plain) return true;
  }
  return walkCanonical(text, el, apexName, apexScope);
}

/** Tag by tag, with the namespaces in scope (declarations below the apex, `&gt;` in text, …). */
function walkCanonical(text: string, el: ElementSpan, apexName: string, apexScope: Bindings): boolean {
  const stack: { name: string; scope: Bindings }[] = [{ name: apexName, scope: apexScope }];
  let pos = el.startEnd;
  for (;;) {
    TEXT.lastIndex = pos;
    TEXT.test(text);
    pos = TEXT.lastIndex;
    if (text.charCodeAt(pos) !== 0x3c /* < */) return false; // `>`, CR or a reference C14N would write otherwise
    if (text.charCodeAt(pos + 1) === 0x2f /* / */) {
      END_TAG.lastIndex = pos;
      const m = END_TAG.exec(text);
      if (!m || m[1] !== stack.pop()!.name) return false;
      pos = END_TAG.lastIndex;
      if (!stack.length) return pos === el.end;
      continue;
    }
    START_TAG.lastIndex = pos;
    const m = START_TAG.exec(text);
    if (!m) return false; // comment, PI, CDATA, `<a/>`, other spacing or quoting
    const parentScope = stack[stack.length - 1]!.scope;
    const scope = m[2] ? attributesCanonical(m[2], parentScope) : parentScope;
    if (!scope) return false;
    stack.push({ name: m[1]!, scope });
    pos = START_TAG.lastIndex;
  }
}

/**
 * The scope after a descendant's start tag whose attributes are in canonical order and form
 * (declarations first, default then by prefix, each one changing the scope; then unqualified
 * attributes by name), or null.
 */
function attributesCanonical(attrs: string, parentScope: Bindings): Bindings | null {
  let scope: Map<string, string> | null = null;
  let lastDeclared: string | null = null;
  let lastName: string | null = null;
  for (const [, name, value] of attrs.matchAll(ATTRIBUTE)) {
    const prefix = declaredPrefix(name!);
    if (prefix === null) {
      if (name!.includes(':') || (lastName !== null && name! <= lastName)) return null;
      lastName = name!;
      continue;
    }
    if (lastName !== null || (lastDeclared !== null && prefix <= lastDeclared)) return null;
    lastDeclared = prefix;
    if (!declarable(prefix, value!)) return null;
    // C14N leaves out a declaration the output already has (for the default: xmlns="" with none in scope).
    if ((parentScope.get(prefix) ?? '') === value) return null;
    scope ??= new Map(parentScope);
    scope.set(prefix, value!);
  }
  return scope ?? parentScope;
}
