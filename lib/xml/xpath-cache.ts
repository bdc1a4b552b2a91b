import { XmlXPath } from 'libxml2-wasm';

/**
 * XPaths compiled once per process and reused: libxml2-wasm's `get(string)`/`find(string)` copy the
 * expression and its namespaces into wasm memory and compile it on every call, most of what a
 * field lookup costs. Only for the code's own fixed expressions (each is kept for the life of the
 * process); one that would embed a value from a request (an Id) must select broadly and filter in
 * JS instead, or the cache grows with every request.
 */
export type Namespaces = Readonly<Record<string, string>>;

/** Per namespace map (by identity: pass a module constant, not a literal per call), per expression. */
const compiled = new WeakMap<Namespaces, Map<string, XmlXPath>>();

export function compiledXPath(expression: string, namespaces: Namespaces): XmlXPath {
  let byExpression = compiled.get(namespaces);
  if (!byExpression) {
    byExpression = new Map();
    compiled.set(namespaces, byExpression);
  }
  let x = byExpression.get(expression);
  if (!x) {
    x = XmlXPath.compile(expression, { ...namespaces });
    byExpression.set(expression, x);
  }
  return x;
}
