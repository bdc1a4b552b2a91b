/**
 * Where the elements of well-formed XML text begin and end, by offset: libxml2 judges the
 * document, this only maps its elements back to the received bytes, so that they can be used as
 * they are (the message inside a SOAP envelope without re-serializing it, a signed element whose
 * text is already canonical: issue 18).
 *
 * The text must be one libxml2 has accepted as well-formed: the scanner relies on it (`<` only
 * opens markup, a quoted value holds no `<` nor its own quote) and checks nothing else. It returns
 * null for a DOCTYPE, whose entities and default attributes would make the text and the tree differ.
 */
export interface ElementSpan {
  /** Qualified name as written. */
  name: string;
  /** Offset of the start tag's `<`. */
  start: number;
  /** Offset just after the start tag's `>` (the whole element's end for an empty-element tag). */
  startEnd: number;
  /** Offset just after the end tag's `>`. */
  end: number;
  /** The start tag's attributes as written (from just after the name to before `>` or `/>`). */
  attrs: string;
  /** Index of the parent element in the list, -1 for the outermost. */
  parent: number;
}

const START_TAG = /<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const END_TAG = /<\/([^\s>]+)\s*>/y;
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** One piece of markup: a start tag (`empty` for `<a/>`), an end tag, or a comment, PI or CDATA section. */
export type Markup =
  | { kind: 'start'; name: string; attrs: string; empty: boolean; end: number }
  | { kind: 'end'; name: string; end: number }
  | { kind: 'other'; end: number };

/** The markup whose `<` is at `pos`, ending before `to`; null for a DOCTYPE or what well-formed text cannot hold. */
export function markupAt(text: string, pos: number, to = text.length): Markup | null {
  const c = text.charCodeAt(pos + 1);
  let m: Markup | null;
  if (c === 0x2f /* / */) {
    END_TAG.lastIndex = pos;
    const e = END_TAG.exec(text);
    m = e && { kind: 'end', name: e[1]!, end: END_TAG.lastIndex };
  } else if (c === 0x21 /* ! */) {
    const end = text.startsWith('<!--', pos) ? after(text, '-->', pos + 4) : text.startsWith('<![CDATA[', pos) ? after(text, ']]>', pos + 9) : -1;
    m = end < 0 ? null : { kind: 'other', end }; // or a DOCTYPE
  } else if (c === 0x3f /* ? */) {
    const end = after(text, '?>', pos + 2);
    m = end < 0 ? null : { kind: 'other', end };
  } else {
    START_TAG.lastIndex = pos;
    const t = START_TAG.exec(text);
    m = t && { kind: 'start', name: t[1]!, attrs: t[2]!, empty: !!t[3], end: START_TAG.lastIndex };
  }
  return m && m.end <= to ? m : null;
}

/** The elements of text[from, to) in document order (start offsets increasing), or null. */
export function elementSpans(text: string, from = 0, to = text.length): ElementSpan[] | null {
  const out: ElementSpan[] = [];
  const open: number[] = [];
  for (let pos = text.indexOf('<', from); pos !== -1 && pos < to; pos = text.indexOf('<', pos)) {
    const c = text.charCodeAt(pos + 1);
    // The common tags without a regex: `<name>` and `</name…>` (an end tag holds no `>` but its last).
    if (c === 0x2f /* / */) {
      const end = text.indexOf('>', pos) + 1;
      const i = open.pop();
      if (end === 0 || end > to || i === undefined) return null;
      out[i]!.end = end;
      pos = end;
      continue;
    }
    let nameEnd = pos + 1;
    while (nameEnd < to && !endsName(text.charCodeAt(nameEnd))) nameEnd++;
    const m: Markup | null = text.charCodeAt(nameEnd) === 0x3e /* > */ && c !== 0x21 && c !== 0x3f && nameEnd > pos + 1
      ? { kind: 'start', name: text.slice(pos + 1, nameEnd), attrs: '', empty: false, end: nameEnd + 1 }
      : markupAt(text, pos, to);
    if (!m || m.kind === 'end') return null;
    if (m.kind === 'start') {
      const parent = open.length ? open[open.length - 1]! : -1;
      if (!m.empty) open.push(out.length);
      out.push({ name: m.name, start: pos, startEnd: m.end, end: m.end, attrs: m.attrs, parent });
    }
    pos = m.end;
  }
  return open.length ? null : out;
}

/** Whitespace, `/` or `>`: what ends a name in a tag. */
const endsName = (c: number) => c === 0x20 || c === 0x3e || c === 0x2f || c === 0x0a || c === 0x09 || c === 0x0d;

function after(text: string, terminator: string, from: number): number {
  const i = text.indexOf(terminator, from);
  return i < 0 ? -1 : i + terminator.length;
}

/** The attributes of a start tag as written (`attrs` of an ElementSpan): name → raw value (references not expanded). */
export function rawAttributes(attrs: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of attrs.matchAll(ATTRIBUTE)) out.set(m[1]!, m[2] ?? m[3]!);
  return out;
}
