import { MAX_JSON_DEPTH } from './json-depth.js';

/**
 * Bounds on the shape of a request body, checked in the gateway right after parsing and before
 * anything else reads the body (issue 23, defect 2). The body limit alone bounds bytes, not work:
 * 3.2 MB of `{"k1":0,"k2":0,…}` is 200 000 keys, and every key used to cost a validator entry, a
 * line in the 400 and bytes on the transporter. No request schema has an object with more than
 * about 60 properties, and the largest legitimate body (a batch of 500 notes within 5 MB) stays
 * well under the node bound: these only stop bodies no schema could accept.
 */
export const MAX_KEYS_PER_OBJECT = 500;
export const MAX_JSON_NODES = 1_000_000;

export interface JsonLimits {
  depth: number;
  keysPerObject: number;
  nodes: number;
}

export const JSON_LIMITS: Readonly<JsonLimits> = Object.freeze({ depth: MAX_JSON_DEPTH, keysPerObject: MAX_KEYS_PER_OBJECT, nodes: MAX_JSON_NODES });

/** The first bound a body breaks; `caminho` names the object with too many keys. */
export type JsonBoundsViolation =
  | { kind: 'depth'; limit: number }
  | { kind: 'keys'; limit: number; caminho: string }
  | { kind: 'nodes'; limit: number };

/**
 * One iterative walk (any depth is safe) that stops at the first violation, so a hostile body
 * costs at most `nodes` steps. Every value counts as a node: objects, arrays and leaves.
 */
export function jsonBoundsViolation(value: unknown, limits: JsonLimits = JSON_LIMITS): JsonBoundsViolation | null {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  let nodes = 0;
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (++nodes > limits.nodes) return { kind: 'nodes', limit: limits.nodes };
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limits.depth) return { kind: 'depth', limit: limits.depth };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], depth + 1, childPath(v[i], path, `[${i}]`)]);
      continue;
    }
    let keys = 0;
    // for…in without building Object.keys(): a 200 000-key object is refused after 501 steps.
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      if (++keys > limits.keysPerObject) return { kind: 'keys', limit: limits.keysPerObject, caminho: path };
    }
    for (const k in v) {
      const child = (v as Record<string, unknown>)[k];
      if (Object.prototype.hasOwnProperty.call(v, k)) stack.push([child, depth + 1, childPath(child, path, path ? `.${k}` : k)]);
    }
  }
  return null;
}

/** Only containers can break the key bound: leaves skip building a path (most of a large body). */
function childPath(child: unknown, parent: string, step: string): string {
  return child !== null && typeof child === 'object' ? parent + step : '';
}
