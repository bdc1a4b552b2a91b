/**
 * A tiny XML writer whose output is already Canonical XML 1.0 (W3C xml-c14n-20010315), so the
 * bytes it returns are the bytes a signature digests: no XML declaration, no whitespace between
 * tags, no empty-element tags (`<a></a>`), attributes sorted the way C14N sorts them (namespace
 * declarations first, then unqualified attributes by name), and text and attribute values
 * escaped exactly as C14N escapes them (C14N 1.0 §2.3 "Processing Model", character escaping).
 *
 * Nodes are strings already serialized (a branded type): building a 990-item note is string
 * concatenation, with no DOM and no second pass. `toXml` is the identity and exists so callers
 * do not depend on that choice.
 */
declare const xmlBrand: unique symbol;
export type XmlNode = string & { readonly [xmlBrand]: true };

/** A child slot: absent optional groups (`opt` with no value, `cond && el(...)`) are skipped. */
export type XmlChild = XmlNode | undefined | null | false;

// Characters XML 1.0 cannot carry at all (§2.2 Char): a builder bug or a bad input, never escaped.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const TEXT_SPECIAL = /[&<>\r]/;
const ATTR_SPECIAL = /[&<"\t\n\r]/;
const TEXT_SCAN = /[&<>\u0000-\u001F\uFFFE\uFFFF]/;
const ATTR_SCAN = /[&<"\u0000-\u001F\uFFFE\uFFFF]/;

function assertChars(value: string, where: string): void {
  if (FORBIDDEN.test(value)) throw new RangeError(`character not allowed in XML in ${where}`);
}

/** C14N text escaping: & < > as entities and CR as &#xD; (LF and TAB stay literal). */
export function escapeText(value: string): string {
  // One scan for the common case (nothing to escape, nothing forbidden).
  if (!TEXT_SCAN.test(value)) return value;
  assertChars(value, 'text');
  if (!TEXT_SPECIAL.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '&') out += '&amp;';
    else if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '\r') out += '&#xD;';
    else out += c;
  }
  return out;
}

/** C14N attribute escaping: & < " as entities and TAB, LF, CR as character references. */
export function escapeAttr(value: string): string {
  if (!ATTR_SCAN.test(value)) return value;
  assertChars(value, 'attribute');
  if (!ATTR_SPECIAL.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '&') out += '&amp;';
    else if (c === '<') out += '&lt;';
    else if (c === '"') out += '&quot;';
    else if (c === '\t') out += '&#x9;';
    else if (c === '\n') out += '&#xA;';
    else if (c === '\r') out += '&#xD;';
    else out += c;
  }
  return out;
}

export interface ElementOptions {
  /**
   * Default namespace declared on this element. C14N renders it where it is first in scope for
   * the output: on the document root, and on the apex of a signed subset (infNFe, SignedInfo).
   */
  xmlns?: string;
}

/** Unqualified attributes in C14N order (by local name, code-point order), namespace first. */
function openTag(name: string, attrs?: Readonly<Record<string, string | undefined>>, options?: ElementOptions): string {
  let tag = '<' + name;
  if (options?.xmlns !== undefined) tag += ` xmlns="${escapeAttr(options.xmlns)}"`;
  if (attrs) {
    const names = Object.keys(attrs).filter((k) => attrs[k] !== undefined);
    // Code-point order, as C14N requires (not locale order).
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const k of names) tag += ` ${k}="${escapeAttr(attrs[k] as string)}"`;
  }
  return tag + '>';
}

/** An element with child elements (absent children skipped) and optional attributes. */
export function el(
  name: string,
  children: readonly XmlChild[],
  attrs?: Readonly<Record<string, string | undefined>>,
  options?: ElementOptions,
): XmlNode {
  let inner = '';
  for (const c of children) if (c) inner += c;
  return (openTag(name, attrs, options) + inner + '</' + name + '>') as XmlNode;
}

/** An element whose content is already serialized canonical XML (e.g. a signed subtree). */
export function raw(name: string, innerXml: string, attrs?: Readonly<Record<string, string | undefined>>, options?: ElementOptions): XmlNode {
  return (openTag(name, attrs, options) + innerXml + '</' + name + '>') as XmlNode;
}

/** A text-only element. */
export function leaf(name: string, text: string | number): XmlNode {
  return ('<' + name + '>' + escapeText(String(text)) + '</' + name + '>') as XmlNode;
}

/** A text-only element written only when the value is present (undefined, null and '' skip it). */
export function opt(name: string, value: string | number | undefined | null): XmlNode | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return leaf(name, value);
}

/** Marks a string that is already canonical XML (e.g. the signature) as a node. */
export function trusted(xml: string): XmlNode {
  return xml as XmlNode;
}

export function toXml(node: XmlNode): string {
  return node;
}
