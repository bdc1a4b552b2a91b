/**
 * The deepest request body the gateway accepts. No request schema nests more than a handful of
 * levels (`notas[].items[].icms` is 5); the limit keeps every recursive walk behind the gateway
 * (validators, fingerprints, serializers) far from the call-stack limit that a body of a few
 * thousand `{"a":` would otherwise reach (a RangeError, answered as 500).
 */
export const MAX_JSON_DEPTH = 32;

/** True when the parsed JSON value nests objects/arrays deeper than `max`. Iterative: any depth is safe. */
export function jsonDepthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
