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

/** Path (`items[0].descricao`, `[2]`, a key itself) of the first string, key or value, holding such a character. */
export function findUnstorableText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (UNSTORABLE.test(key)) return at;
    const found = findUnstorableText((value as Record<string, unknown>)[key], at);
    if (found !== null) return found;
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
