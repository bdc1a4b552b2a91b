/**
 * moleculer-web merges the parsed body into the action's params with `Object.assign(params, body,
 * query)`. JSON.parse keeps a `"__proto__"` key as an own property, but Object.assign *assigns* it,
 * and assigning `__proto__` sets the merged object's prototype: the key vanished from what the
 * strict schemas see (Object.keys), so it was accepted silently, while `constructor` was reported
 * (API.md, Errors > Unknown fields). This puts the key back as an own property, as the body has
 * it, and gives the params their plain prototype again, so a strict schema reports `__proto__`
 * like any other unknown key and nothing inherits from the sent value. Keys below the root are
 * not merged: they keep JSON.parse's own property.
 */
export function restoreProtoKey(params: unknown, body: unknown): void {
  if (!params || typeof params !== 'object' || !body || typeof body !== 'object' || Array.isArray(body)) return;
  if (!Object.prototype.hasOwnProperty.call(body, '__proto__')) return;
  if (Object.getPrototypeOf(params) !== Object.prototype) Object.setPrototypeOf(params, Object.prototype);
  const value = Object.getOwnPropertyDescriptor(body, '__proto__')!.value;
  Object.defineProperty(params, '__proto__', { value, enumerable: true, writable: true, configurable: true });
}
