import { markupAt } from '../../xml/markup.js';

/**
 * Where the message lies in the text of the envelope libxml2 has parsed, so that the parsed
 * envelope can become the message's document with no second parse (issue 18): the message's
 * element is made the document's root, and this text is what that document was parsed from.
 *
 * Only for the plain shape every client sends (the Envelope first and last in the text, an
 * optional Header, the Body holding nfeDadosMsg, nfeDadosMsg holding the message, nothing but
 * whitespace after it) and a self-contained message: one that uses no namespace declared on the
 * envelope around it (the message's own default declaration, as the layout has it, hides the
 * envelope's). The caller checks on the document that the Envelope's element children are the Body
 * (after a Header, if any), the Body's only nfeDadosMsg and nfeDadosMsg's only the message: then the
 * tags found here are those elements'. Null otherwise, and the caller re-serializes the message.
 */
export interface EnvelopeShape {
  /** Qualified names as written: Envelope, Body, nfeDadosMsg, the message's root. */
  envelope: string;
  body: string;
  dadosMsg: string;
  message: string;
  /** Namespaces in scope on the message's root that its ancestors declare and it does not (prefix '' the default). */
  inherited: ReadonlyMap<string, string>;
}

export interface MessageRegion { start: number; end: number }

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

export function messageRegion(text: string, shape: EnvelopeShape): MessageRegion | null {
  const start = messageStart(text, shape);
  const end = start < 0 ? -1 : messageEnd(text, shape);
  if (start < 0 || end <= start) return null;
  for (const [prefix, uri] of shape.inherited) {
    // A default namespace inherited from the envelope would be lost; a prefix of the envelope's might be used inside.
    if (prefix === '' ? uri !== '' : mayUsePrefix(text, start, end, prefix)) return null;
  }
  return { start, end };
}

/**
 * Whether `p:` follows `<`, `/` or whitespace in text[start, end): how every element or attribute
 * name with that prefix begins in a tag (in text or a value too: such a false alarm only costs the
 * re-serializing path).
 */
function mayUsePrefix(text: string, start: number, end: number, prefix: string): boolean {
  const needle = `${prefix}:`;
  for (let i = text.indexOf(needle, start); i !== -1 && i + needle.length <= end; i = text.indexOf(needle, i + 1)) {
    const before = text.charCodeAt(i - 1);
    if (before === 0x3c || before === 0x2f || isSpace(before)) return true;
  }
  return false;
}

/** Offset of the message's start tag: the first element inside nfeDadosMsg inside the Body. */
function messageStart(text: string, shape: EnvelopeShape): number {
  let pos = 0;
  while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
  // Nothing before the Envelope: a comment or PI there would stay beside the message's root.
  let m = text.charCodeAt(pos) === 0x3c /* < */ ? markupAt(text, pos) : null;
  if (!m || m.kind !== 'start' || m.empty || m.name !== shape.envelope) return -1;
  pos = m.end;
  // Up to the Body's start tag, walking over a Header.
  for (;;) {
    pos = text.indexOf('<', pos);
    m = pos < 0 ? null : markupAt(text, pos);
    if (!m || m.kind === 'end') return -1;
    if (m.kind === 'start' && m.name === shape.body) break;
    pos = m.kind === 'start' && !m.empty ? skipElement(text, m.end) : m.end;
    if (pos < 0) return -1;
  }
  if (m.empty) return -1;
  // nfeDadosMsg is the Body's first element and the message nfeDadosMsg's.
  for (const name of [shape.dadosMsg, shape.message]) {
    pos = m.end;
    do {
      pos = text.indexOf('<', pos);
      m = pos < 0 ? null : markupAt(text, pos);
      if (!m || m.kind === 'end') return -1;
      if (m.kind === 'other') pos = m.end;
    } while (m.kind === 'other');
    if (m.name !== name || m.empty) return -1;
  }
  return pos;
}

/** Offset just after the end tag of the element whose start tag ends at `from`. */
function skipElement(text: string, from: number): number {
  let depth = 1;
  for (let pos = text.indexOf('<', from); pos !== -1; pos = text.indexOf('<', pos)) {
    const m = markupAt(text, pos);
    if (!m) return -1;
    if (m.kind === 'start' && !m.empty) depth++;
    else if (m.kind === 'end' && --depth === 0) return m.end;
    pos = m.end;
  }
  return -1;
}

/**
 * Offset just after the message's end tag, read from the end of the text: `</message>`,
 * `</nfeDadosMsg>`, `</Body>` and `</Envelope>` with only whitespace between and after. Being the
 * last markup of a well-formed text they close the root, its last child, and so on down.
 */
function messageEnd(text: string, shape: EnvelopeShape): number {
  let pos = text.length;
  let tagEnd = -1;
  for (const name of [shape.envelope, shape.body, shape.dadosMsg, shape.message]) {
    while (pos > 0 && isSpace(text.charCodeAt(pos - 1))) pos--;
    tagEnd = pos;
    if (text.charCodeAt(pos - 1) !== 0x3e /* > */) return -1;
    pos--;
    while (pos > 0 && isSpace(text.charCodeAt(pos - 1))) pos--;
    if (pos < name.length + 2 || !text.startsWith(name, pos - name.length) || !text.startsWith('</', pos - name.length - 2)) return -1;
    pos -= name.length + 2;
  }
  return tagEnd;
}
