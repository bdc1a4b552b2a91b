/**
 * A deep copy of a JSON value in which object properties set to `null` are absent. Emission
 * bodies treat null as "not sent" (fastest-validator lets null through optional rules, and the
 * rules and the XML builder only know absent). Array entries are kept, so a null entry is still
 * refused by its item schema. Keys are defined, never assigned: a JSON "__proto__" key stays an
 * own (unknown, refused) key instead of becoming the prototype.
 */
export function withoutNulls<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  // Indexed loops and Object.keys rather than map/Object.entries: this copies every body of up to
  // 990 items on the emission hot path, and the [key, value] pairs were most of its cost.
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = withoutNulls(value[i]);
    return copy as T;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(source)) {
    const v = source[k];
    if (v === null) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: withoutNulls(v), enumerable: true, writable: true, configurable: true });
    else out[k] = withoutNulls(v);
  }
  return out as T;
}

/**
 * The same without copying what has no null inside: unchanged subtrees are shared with the input.
 * For readers that never mutate (lib/nfe/check.ts), so the common case allocates nothing.
 */
export function dropNulls<T>(value: T): T {
  if (value === null || typeof value !== 'object' || !containsNull(value)) return value;
  return withoutNulls(value);
}

function containsNull(value: object): boolean {
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (v === null || (typeof v === 'object' && containsNull(v))) return true;
  }
  return false;
}
