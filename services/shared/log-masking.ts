/**
 * Credentials embedded in URLs (postgres://user:password@host, redis://:password@host) reach log
 * lines through error messages and stacks of drivers, which the field-name redaction of
 * moleculer.config.ts cannot see. Every string of a log call is masked here before pino writes it.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*):([^\s/@]+)@/gi;
const MAX_DEPTH = 4;

export function maskUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_CREDENTIALS, (_m, scheme: string, user: string) => `${scheme}${user ? `${user}:` : ':'}[redacted]@`) : text;
}

/** Strings masked in place of plain objects and arrays (copies; the caller's objects are untouched). */
export function maskLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return Object.assign(Object.create(Object.getPrototypeOf(value)), value, { message: maskUrlCredentials(value.message), stack: value.stack && maskUrlCredentials(value.stack) });
  }
  if (Array.isArray(value)) return value.map((v) => maskLogValue(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = maskLogValue(v, depth + 1);
  return out;
}
