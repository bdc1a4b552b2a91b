import { XmlDocument, type ParseOptions } from 'libxml2-wasm';

/**
 * XML text parsed by libxml2-wasm, the way every module of the product and the simulators parses
 * it. libxml2-wasm's own `fromString` encodes the JS string into WASM memory with emscripten's
 * UTF-8 loop, one character at a time in JavaScript. Node encodes natively, and `fromBuffer`
 * copies the bytes in one call: the same bytes reach the same libxml2 call, and the parse costs
 * 20-35 % less (issue 18; warmed, alternated: 6 KB 0.18-0.26 → 0.14-0.16 ms, 55 KB 0.96-1.18 →
 * 0.73-0.76 ms, 1 MB 25-30 → 17-21 ms; cold, before the JIT settles, the loop costs far more).
 *
 * Text that is not well-formed UTF-16 (a lone surrogate, which can come from a JSON escape) is
 * left to `fromString`: Node's encoder would replace it with U+FFFD and the document would parse,
 * where emscripten's writes it as it is and libxml2 refuses the document, as it always has.
 */
export function parseXml(text: string, options?: ParseOptions): XmlDocument {
  if (!(text as WellFormedCheck).isWellFormed()) return XmlDocument.fromString(text, options);
  return XmlDocument.fromBuffer(Buffer.from(text, 'utf8'), options);
}

/** String.prototype.isWellFormed (ES2024, in Node 20), which the project's ES2022 typings lack. */
type WellFormedCheck = string & { isWellFormed(): boolean };
