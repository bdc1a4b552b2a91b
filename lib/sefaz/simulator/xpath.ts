import type { XmlXPath } from 'libxml2-wasm';
import { compiledXPath } from '../../xml/xpath-cache.js';
import { NFE_NS } from '../services.js';

/**
 * XPaths compiled once and reused (lib/xml/xpath-cache.ts; issue 18): libxml2-wasm's `get(string)`/`find(string)` copy the
 * expression and its namespaces into wasm memory and compile it on every call, ~45 µs of the ~50 µs
 * a field lookup costs; evaluating the compiled one costs ~6 µs. Prefixes: `n` the NF-e namespace,
 * `ds` XML-DSig.
 *
 * Only for the code's own, fixed expressions (each is kept for the life of the process): one that
 * embeds a value from a request (an Id) must select broadly and filter in JS instead.
 */
export const XPATH_NS = { n: NFE_NS, ds: 'http://www.w3.org/2000/09/xmldsig#' } as const;

export function xpath(expression: string): XmlXPath {
  return compiledXPath(expression, XPATH_NS);
}
