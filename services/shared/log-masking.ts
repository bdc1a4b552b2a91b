/**
 * Every argument of every log call passes through maskLogValue (the pino logMethod hook of
 * moleculer.config.ts) before pino writes it, and that one walk does both jobs: fields named as
 * secrets are censored, and credentials embedded in URLs (postgres://user:password@host,
 * redis://:password@host), which reach log lines through error messages and stacks of drivers, are
 * masked in every string. Pino's own `redact` did the first job with a second, wildcard-path walk
 * that cost as much per emitted note as the Postgres driver.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*):([^\s/@]+)@/gi;
const MAX_DEPTH = 4;
const CENSOR = '[redacted]';

/**
 * Field names whose values never reach a log line, at any depth the walk reaches. Exact own key
 * names only: `passwordPolicy` or `tokens` are logged as they are.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password', 'newPassword', 'senha', 'token', 'refreshToken', 'access_token', 'refresh_token', 'mfaToken', 'mfa_token',
  'totpCode', 'recoveryCode', 'apiKey', 'webhookSecret', 'secret', 'pfx', 'certificado', 'authorization', 'x-api-key', 'csc',
]);

export function maskUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_CREDENTIALS, (_m, scheme: string, user: string) => `${scheme}${user ? `${user}:` : ':'}${CENSOR}@`) : text;
}

/**
 * Secret fields censored and strings masked in plain objects, arrays and errors, down to MAX_DEPTH.
 * The caller's objects are never mutated: whatever changes is a copy, and a plain object or array
 * in which nothing changes is returned as it is (most log calls carry no secret: no allocation).
 */
export function maskLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    const copy = Object.create(Object.getPrototypeOf(value));
    for (const k of Object.keys(value)) copy[k] = maskField(k, (value as any)[k], depth);
    return Object.assign(copy, { message: maskUrlCredentials(value.message), stack: value.stack && maskUrlCredentials(value.stack) });
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const masked = maskLogValue(value[i], depth + 1);
      if (masked !== value[i] && !out) out = value.slice(0, i);
      if (out) out.push(masked);
    }
    return out ?? value;
  }
  // What serializes itself (a Date, a Buffer, anything with toJSON) is left to do so; any other
  // object, a class instance included, is walked as pino's redact paths walked it.
  if (ArrayBuffer.isView(value) || value instanceof Map || value instanceof Set || typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const keys = Object.keys(value);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const v = (value as Record<string, unknown>)[keys[i]!];
    const masked = maskField(keys[i]!, v, depth);
    if (masked !== v && !out) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = (value as Record<string, unknown>)[keys[j]!];
    }
    if (out) out[keys[i]!] = masked;
  }
  return out ?? value;
}

function maskField(key: string, value: unknown, depth: number): unknown {
  return SECRET_FIELDS.has(key) ? CENSOR : maskLogValue(value, depth + 1);
}
