import { DomainError } from '../errors/index.js';

/**
 * U+0000 and UTF-16 surrogates without their pair parse fine as JSON (`"\u0000"`, `"\ud800"`) but
 * have no place in what the service keeps: Postgres refuses both in text and json columns (a 500
 * after the number was taken, or a batch that never enqueues), UTF-8 cannot encode a lone surrogate
 * and XML 1.0 forbids U+0000. They are refused with the request's other input errors, before any
 * action runs.
 */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Path (`items[0].descricao`, `[2]`, a key itself) of the first string, key or value, holding such
 * a character, or null. Iterative, so no nesting depth can overflow the call stack.
 */
export function findUnstorableText(value: unknown): string | null {
  return containsUnstorable(value) ? pathOfUnstorable(value) : null;
}

/**
 * The same walk without building paths: every request body goes through it (a 990-item note is
 * ~30 000 values), and paths are only needed for the rare refusal.
 */
function containsUnstorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return true;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
      continue;
    }
    for (const key of Object.keys(v)) {
      if (UNSTORABLE.test(key)) return true;
      stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return false;
}

function pathOfUnstorable(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return path;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    // Children pushed last-first, so they are visited in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) if (UNSTORABLE.test(key)) return path ? `${path}.${key}` : key;
    for (let i = keys.length - 1; i >= 0; i--) stack.push([(v as Record<string, unknown>)[keys[i]!], path ? `${path}.${keys[i]}` : keys[i]!]);
  }
  return null;
}

/** The 400 VALIDATION_ERROR for such input, or null when every string is storable. */
export function unstorableTextRefusal(params: unknown): DomainError | null {
  const field = findUnstorableText(params);
  if (field === null) return null;
  return new DomainError('VALIDATION_ERROR', {
    errors: [{ field, message: `O campo '${field}' contém caractere não permitido (U+0000 ou surrogate UTF-16 isolado).` }],
  });
}
