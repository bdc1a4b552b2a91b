import { canonicalElementText } from './canonical-text.js';
import { elementSpans, rawAttributes, type ElementSpan } from './markup.js';
import { DS } from './xmldsig.js';

/**
 * The two canonical forms an enveloped XML-DSig signature covers (the element it references and
 * its SignedInfo), read from the document's text when that text is already canonical there
 * (canonical-text.ts), so that no libxml2 C14N is needed (issue 18): the SEFAZ simulator's NF-e
 * check and the Sefin simulator's DPS and event check. Null whenever that is not certain; the
 * caller then canonicalizes with libxml2.
 *
 * The element is the only one whose unqualified `Id` is written as `id`, and no `Id` is written
 * with a reference (then no other one can have that value: the parser changes nothing else in a
 * value that could make it `id`), so its answer is the parsed document's, and the caller need not
 * look for the Id there (an XPath walk of every attribute). The caller has found on the document
 * exactly one XML-DSig Signature referencing `#id`, with one SignedInfo: the SignedInfo found here
 * by its text (its Reference's `URI` written as `#id`) is then that one, or none is found.
 */
export interface SignedTexts { target: string; signedInfo: string }

/** A declared encoding other than UTF-8: libxml2 decoded the bytes it names, the text is what JS decoded. */
const OTHER_ENCODING = /^\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["'](?!utf-?8["'])/i;

export function signedTexts(text: string, id: string): SignedTexts | null {
  if (OTHER_ENCODING.test(text)) return null;
  const spans = elementSpans(text);
  if (!spans) return null;
  const uri = `#${id}`;
  let target = -1;
  let signedInfo = -1;
  for (let i = 0; i < spans.length; i++) {
    const el = spans[i]!;
    const written = el.attrs.includes('Id') ? rawAttributes(el.attrs).get('Id') : undefined;
    if (written?.includes('&')) return null;
    if (written === id) {
      if (target >= 0) return null;
      target = i;
    }
    if (localName(el.name) === 'SignedInfo' && el.parent >= 0 && localName(spans[el.parent]!.name) === 'Signature'
      && namespaceOf(spans, i) === DS && namespaceOf(spans, el.parent) === DS && references(spans, i, uri)) {
      if (signedInfo >= 0) return null;
      signedInfo = i;
    }
  }
  if (target < 0 || signedInfo < 0) return null;
  // Enveloped inside the element it signs: the signature must be cut out first (libxml2's path).
  const signature = spans[spans[signedInfo]!.parent]!;
  if (signature.start > spans[target]!.start && signature.end <= spans[target]!.end) return null;
  const targetText = canonicalElementText(text, spans, target);
  const signedInfoText = targetText && canonicalElementText(text, spans, signedInfo);
  return targetText && signedInfoText ? { target: targetText, signedInfo: signedInfoText } : null;
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** Whether a Reference child (XML-DSig) of SignedInfo `index` has its URI written as `uri`. */
function references(spans: readonly ElementSpan[], index: number, uri: string): boolean {
  for (let i = index + 1; i < spans.length && spans[i]!.start < spans[index]!.end; i++) {
    const el = spans[i]!;
    if (el.parent === index && localName(el.name) === 'Reference' && rawAttributes(el.attrs).get('URI') === uri && namespaceOf(spans, i) === DS) return true;
  }
  return false;
}

/** The namespace of element `index` by the declarations written on it and its ancestors; null when one is not literal. */
function namespaceOf(spans: readonly ElementSpan[], index: number): string | null {
  const colon = spans[index]!.name.indexOf(':');
  const attr = colon < 0 ? 'xmlns' : `xmlns:${spans[index]!.name.slice(0, colon)}`;
  for (let i = index; i >= 0; i = spans[i]!.parent) {
    if (!spans[i]!.attrs.includes('xmlns')) continue;
    const value = rawAttributes(spans[i]!.attrs).get(attr);
    if (value !== undefined) return /[&\t\n\r]/.test(value) ? null : value;
  }
  return colon < 0 ? '' : null;
}
