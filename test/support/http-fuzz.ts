import fc from 'fast-check';

/**
 * Input classes for test/e2e/http-fuzz.test.ts: hostile JSON (as text, so `-0`, `1e400` and
 * `__proto__` reach the server as written), garbage path segments, query strings, raw bodies with
 * wrong content types, schema-shaped bodies from the OpenAPI document, and one-spot mutations of
 * a valid body.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  [k: string]: unknown;
}

/** Keys that mean something to JavaScript objects, validators or promise machinery. */
export const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'toJSON', 'then', 'length', '$$root', '$$strict', '$$async', 'isPrototypeOf', '__defineGetter__', ''];

/** Number literals JSON.stringify cannot write. */
export const RAW_NUMBERS = ['1e308', '-1e308', '1e400', '-1e400', '-0', '1e-400', '5e-324', '9007199254740993', '123456789012345678901234567890', '0.1', '-0.0', '1E2', '100.000000000001', '2147483648', '-2147483649', '999999999999999999999.99'];

export const NASTY_STRINGS = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', '-0', '1e308', '1e400', '0x10', '１２３', 'null', 'undefined', 'true', '[]', '{}',
  '\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '\u202e', '\ufeff', '<x>&amp;</x>', ']]>', '\'; drop table x; --', '${x}', '%s%n',
  '2026-13-45', '0000-00-00', '-271821-04-20', '+275760-09-13T00:00:00.001Z', '275760-09-14', '2026-02-30T25:61:61Z', '9999-12-31T23:59:59.999Z',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '../../etc/passwd', 'C:\\x', 'ek_live_', 'whsec_',
  'http://127.0.0.1:1/', 'http://[::1]/', 'https://example.com:99999/', 'file:///etc/passwd', 'javascript:alert(1)', 'https://exa mple.com',
  '12345678000195', '00000000000000', '11111111111', '99999999999999', 'ção', '\u00e7a\u0303o', '🤖'.repeat(50), 'x'.repeat(70_000),
];

const raw = (s: string) => `\u0001RAW:${s}\u0001`;
/** Replaces the raw-literal placeholders (strings) by the literal they stand for. */
function unraw(text: string): string {
  return text.replace(/"\\u0001RAW:([^"\\]*)\\u0001"/g, '$1');
}

function withKey(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

/** Percent-encodes every byte of the UTF-8 form but the unreserved ones; never throws (lone surrogates too). */
export function enc(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** `depth` nested objects or arrays as text (JSON.stringify would overflow the stack first). */
export function deepText(depth: number, asArray: boolean): string {
  return asArray ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function nest(depth: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** A JSON value that stresses parsers, validators, converters and the database. */
export function arbNasty(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1, 1e-7, 2 ** 31, -(2 ** 31), 1.005, 99.999), weight: 3 },
    { arbitrary: fc.constantFrom(...RAW_NUMBERS).map(raw), weight: 3 },
    { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 4 },
    { arbitrary: fc.constantFrom<unknown>([], [null], {}, { a: 1 }, [[[]]], Array.from({ length: 10_000 }, () => 0), nest(200, 1, false), nest(200, 1, true)), weight: 2 },
    { arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_KEYS), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => withKey({}, k, v)), weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 2 },
    { arbitrary: fc.fullUnicodeString({ maxLength: 20 }), weight: 2 },
    { arbitrary: fc.integer(), weight: 1 },
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  );
}

/** A whole request body, as JSON text. */
export function arbHostileBody(): fc.Arbitrary<string> {
  const hostileObject = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 })), arbNasty()), { maxLength: 5 })
    .map((pairs) => pairs.reduce((o, [k, v]) => withKey(o, k, v), {} as Record<string, unknown>));
  const body = fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 4 },
    { arbitrary: hostileObject, weight: 4 },
    { arbitrary: arbNasty(), weight: 2 },
    { arbitrary: fc.constantFrom<unknown>(nest(200, 'x', false), nest(200, {}, true), { x: 'y'.repeat(1_000_000) }, Array.from({ length: 100_000 }, (_, i) => i)), weight: 1 },
  ).map((v) => unraw(JSON.stringify(v) ?? 'null'));
  return fc.oneof({ arbitrary: body, weight: 12 }, { arbitrary: fc.constantFrom(deepText(5_000, false), deepText(50_000, true), `{"a":${deepText(3_000, false)}}`), weight: 1 });
}

/** A value that roughly fits the schema, with a nasty value in some spots. */
export function arbSchemaBody(schema: JsonSchema): fc.Arbitrary<string> {
  return fitSchema(schema, 0).map((v) => unraw(JSON.stringify(v) ?? 'null'));
}

function arbFromSchema(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: fitSchema(schema, depth), weight: 6 }, { arbitrary: arbNasty(), weight: 1 });
}

function fitSchema(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => arbFromSchema(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      if (!props.length) return fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const required = new Set(schema.required ?? []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of props) model[k] = arbFromSchema(s, depth + 1);
      return fc.record(model, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) });
    }
    case 'array': {
      const min = Math.min(schema.minItems ?? 0, 3);
      return fc.array(arbFromSchema(schema.items ?? {}, depth + 1), { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? 40;
      const byFormat: Record<string, fc.Arbitrary<string>> = {
        uuid: fc.uuid(), email: fc.emailAddress(), 'date-time': fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), date: fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        uri: fc.webUrl(),
      };
      return fc.oneof(
        byFormat[schema.format ?? ''] ?? fc.string({ minLength: min, maxLength: Math.min(max, 60) }),
        fc.constantFrom('x'.repeat(Math.min(min, 10_000)), 'x'.repeat(Math.min(max, 10_000)), 'x'.repeat(Math.min(max + 1, 10_001)), '9'.repeat(Math.min(max, 100))),
        fc.stringMatching(/^[0-9]{1,44}$/),
      );
    }
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? -1e6;
      const hi = schema.maximum ?? 1e6;
      return fc.oneof(fc.integer({ min: Math.max(-(2 ** 31), Math.ceil(lo)), max: Math.min(2 ** 31 - 1, Math.floor(hi)) }), fc.constantFrom(lo, hi, lo - 1, hi + 1, 0.5, -0.001));
    }
    case 'boolean': return fc.boolean();
    default: return fc.jsonValue({ maxDepth: 1 });
  }
}

/** One change at one spot of a JSON document: `at` picks the node (modulo their count). */
export type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'addKey'; at: number; key: string; value: unknown }
  | { kind: 'wrap'; at: number; asArray: boolean };

/** Values of the right type and plausible content: they pass the schema and reach the business rules. */
export function arbPlausible(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 100),
    fc.constantFrom<unknown>('00', '02', '10', '15', '20', '30', '40', '41', '50', '51', '53', '60', '61', '70', '90', '101', '102', '103', '201', '202', '203', '300', '400', '500', '900',
      '01', '03', '04', '49', '99', '5102', '6102', '5656', '1102', '7102', '5405', '6108', 'SP', 'RJ', '000', '000001', '200001', '1', '2', '3', '4', '9', '90', '17',
      'SEM GTIN', '61091000', '27101259', '0100300', '12345678901234567890123456789012345678901234', 0, 1, 2, 3, 4, 5, 9, 100, 0.01, 99.99, true, false, null),
  );
}

export function arbMutation(): fc.Arbitrary<Mutation> {
  const at = fc.nat();
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('replace' as const), at, value: arbNasty() }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant('replace' as const), at, value: arbPlausible() }), weight: 5 },
    { arbitrary: fc.record({ kind: fc.constant('delete' as const), at }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('addKey' as const), at, key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 10 })), value: arbNasty() }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('wrap' as const), at, asArray: fc.boolean() }), weight: 1 },
  );
}

interface Spot { parent: any; key: string | number | null; value: unknown }

function spots(root: unknown): Spot[] {
  const out: Spot[] = [{ parent: null, key: null, value: root }];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      const key = Array.isArray(v) ? Number(k) : k;
      out.push({ parent: v, key, value: child });
      walk(child);
    }
  };
  walk(root);
  return out;
}

/** Applies a mutation to JSON text and returns JSON text (raw number literals kept). */
export function applyMutation(text: string, m: Mutation): string {
  const box = { root: JSON.parse(text) };
  const all = spots(box.root);
  const spot = all[m.at % all.length]!;
  const set = (value: unknown) => {
    if (spot.parent === null) box.root = value;
    else withKey(spot.parent, String(spot.key), value);
  };
  switch (m.kind) {
    case 'replace': set(m.value); break;
    case 'delete':
      if (spot.parent === null) box.root = {};
      else if (Array.isArray(spot.parent)) spot.parent.splice(spot.key as number, 1);
      else delete spot.parent[spot.key as string];
      break;
    case 'addKey':
      if (spot.value && typeof spot.value === 'object' && !Array.isArray(spot.value)) withKey(spot.value as Record<string, unknown>, m.key, m.value);
      else set(withKey({}, m.key, m.value));
      break;
    case 'wrap': set(m.asArray ? [spot.value] : { valor: spot.value }); break;
  }
  return unraw(JSON.stringify(box.root) ?? 'null');
}

/** One path segment: random text percent-encoded, or raw bytes the URL decoder may choke on. */
export function arbPathSegment(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.fullUnicodeString({ maxLength: 30 }).map(enc), weight: 3 },
    { arbitrary: fc.constantFrom('..', '.', '%', '%%', '%00', '%zz', '%E0%A4%A', '%C0%AE', '%FF', '%ED%A0%80', '%2F', '%2e%2e', '%2e%2e%2f%2e%2e', 'null', 'undefined', '0', '-1', '1e308', 'NaN', 'constructor', '__proto__', 'toString', ';', '~', "!$&'()*+,;=", '%20', '\u00ff\u00fe', '\u00c3\u00a7', 'a'.repeat(5_000), 'ab%', '%u0041', '00000000-0000-0000-0000-000000000000', 'e1b2c3d4-0000-4000-8000-00000000000Z'), weight: 4 },
    { arbitrary: fc.stringOf(fc.char().filter((c) => c > ' ' && c !== '?' && c !== '/' && c !== '#'), { minLength: 1, maxLength: 20 }), weight: 2 },
    { arbitrary: fc.stringOf(fc.integer({ min: 0x80, max: 0xff }).map((n) => String.fromCharCode(n)), { minLength: 1, maxLength: 6 }), weight: 1 },
  );
}

/** A query string (without `?`). */
export function arbQueryString(documented: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { arbitrary: documented.length ? fc.constantFrom(...documented) : fc.constant('limit'), weight: 4 },
    { arbitrary: fc.constantFrom('__proto__', 'constructor', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[]', 'a[b][c][d][e][f][g][h][i][j][k][l]', 'a[999999]', 'limit[]', 'issuerId[$ne]', '', '%', '%zz', 'a.b', 'toString', 'valueOf', '$$root'), weight: 2 },
    { arbitrary: fc.string({ maxLength: 8 }).map(enc), weight: 1 },
  );
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length < 1_000), ...RAW_NUMBERS).map(enc), weight: 4 },
    { arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '1', '100', '101', '0', 'AUTHORIZED', 'indeterminada', 'true'), weight: 3 },
    { arbitrary: fc.fullUnicodeString({ maxLength: 20 }).map(enc), weight: 2 },
  );
  const pair = fc.oneof(
    fc.tuple(key, value).map(([k, v]) => `${k}=${v}`),
    key,
    fc.tuple(key, value, value).map(([k, a, b]) => `${k}=${a}&${k}=${b}`),
  );
  return fc.oneof(
    { arbitrary: fc.array(pair, { maxLength: 6 }).map((ps) => ps.join('&')), weight: 8 },
    { arbitrary: fc.constantFrom('', '&&&', '=', '==', '?', '&=&', `${'a=1&'.repeat(2_000)}a=1`, `limit=${'9'.repeat(400)}`), weight: 1 },
  );
}

/** A raw request body: not JSON, half JSON, or JSON wrapped in something else. */
export function arbRawBody(): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    { arbitrary: fc.constantFrom<string | Buffer>('', ' ', '{', '{"a":', '}', 'null', 'true', '"texto"', '123', '[]', '{"a":1}garbage', '{"a":1}{"b":2}', '\ufeff{"a":1}',
      '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":Infinity}', '{"a":undefined}', '{"a":01}', '{"\\u0000":1}', '{"a":"\\ud800"}', '{"a":"\\x41"}',
      'a=1&b=2', '<xml/>', '\u0000', Buffer.from([0xff, 0xfe, 0x7b, 0x00]), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      '['.repeat(100_000), deepText(100_000, false), `{"a":"${'x'.repeat(6 * 1024 * 1024)}"}`), weight: 5 },
    { arbitrary: fc.fullUnicodeString({ maxLength: 100 }), weight: 2 },
    { arbitrary: arbHostileBody(), weight: 2 },
  );
}

/** Content-Type (and sometimes Content-Encoding) headers, right and wrong. */
export function arbContentType(): fc.Arbitrary<Record<string, string>> {
  const type = fc.constantFrom<string | undefined>(undefined, 'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1',
    'application/json; charset=nonsense', 'application/json;;;', 'application/json; charset', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
    'multipart/form-data', 'application/xml', '', 'application/merge-patch+json', 'application/vnd.api+json', '*/*', 'application', 'json', '\u00ff/\u00fe');
  const encoding = fc.constantFrom<string | undefined>(undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'identity', 'compress', 'nonsense', 'gzip, gzip');
  return fc.tuple(type, encoding).map(([t, e]) => ({ ...(t !== undefined ? { 'content-type': t } : {}), ...(e !== undefined ? { 'content-encoding': e } : {}) }));
}

/** A header value Node's client will send: tab, printable ASCII and Latin-1 (no CR/LF). */
function arbHeaderValue(): fc.Arbitrary<string> {
  const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64url');
  return fc.oneof(
    { arbitrary: fc.stringOf(fc.integer({ min: 0x20, max: 0xff }).filter((n) => n !== 0x7f).map((n) => String.fromCharCode(n)), { maxLength: 40 }), weight: 3 },
    { arbitrary: fc.constantFrom('', ' ', 'Bearer', 'Bearer ', 'Bearer  x', 'bearer abc', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c', 'Bearer ...', 'Bearer %%%.%%%.%%%',
      `Bearer ${b64('{"alg":"none"}')}.${b64('{"sub":"x","typ":"access"}')}.`, `Bearer ${b64('{"alg":"HS256"}')}.${b64('[]')}.${b64('x')}`, `Bearer ${b64('{"alg":"HS256"}')}.${b64('{"sub":{"$ne":1},"exp":1e400}')}.AAAA`,
      `Bearer ${'a'.repeat(8_000)}`, 'ek_live_', 'ek_test_', 'ek_live_x', `ek_live_${'0'.repeat(16)}_${'A'.repeat(43)}`, `ek_test_${'f'.repeat(16)}_`, 'ek_live_\u00ff\u00fe', 'whsec_x',
      '\t', 'null', 'undefined', '__proto__', 'a'.repeat(300), 'ação'), weight: 4 },
  );
}

/** Credentials and request headers the gateway reads, each sometimes present with a hostile value. */
export function arbHostileHeaders(): fc.Arbitrary<Record<string, string>> {
  return fc.record({
    authorization: arbHeaderValue(),
    'x-api-key': arbHeaderValue(),
    'idempotency-key': arbHeaderValue(),
    'x-request-id': arbHeaderValue(),
    accept: fc.constantFrom('application/json', '*/*', 'text/html', '', 'application/xml;q=0.1'),
  }, { requiredKeys: [] });
}

/** A CSV (`;`-separated, CRLF) with one to three cells, lines or bytes changed. */
export function arbCsvMutation(csv: string): fc.Arbitrary<Buffer> {
  const cell = fc.oneof(fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length < 200), ...RAW_NUMBERS, '"', '""', '"a;b', ';;;;', '\r', '\n', '31/02/2026', '00/00/0000', '99/99/99999', '1.000,00', '-5', '1e308', 'NaN'), fc.string({ maxLength: 12 }));
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('cell' as const), line: fc.nat(), col: fc.nat(), value: cell }),
    fc.record({ kind: fc.constant('dropLine' as const), line: fc.nat() }),
    fc.record({ kind: fc.constant('dupLine' as const), line: fc.nat(), times: fc.integer({ min: 1, max: 500 }) }),
    fc.record({ kind: fc.constant('dropCol' as const), line: fc.nat(), col: fc.nat() }),
  );
  const encoding = fc.constantFrom<BufferEncoding>('utf8', 'utf8', 'latin1', 'utf16le');
  return fc.tuple(fc.array(edit, { minLength: 1, maxLength: 3 }), encoding, fc.boolean()).map(([edits, enc, bom]) => {
    const lines = csv.split('\r\n').map((l) => l.split(';'));
    for (const e of edits) {
      const i = e.line % lines.length;
      if (e.kind === 'cell') lines[i]![e.col % lines[i]!.length] = e.value;
      if (e.kind === 'dropLine' && lines.length > 1) lines.splice(i, 1);
      if (e.kind === 'dupLine') lines.splice(i, 0, ...Array.from({ length: e.times }, () => [...lines[i]!]));
      if (e.kind === 'dropCol' && lines[i]!.length > 1) lines[i]!.splice(e.col % lines[i]!.length, 1);
    }
    const text = lines.map((l) => l.join(';')).join('\r\n');
    return Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, enc)]);
  });
}

/** Bytes of a binary file (a PKCS#12) truncated, with flipped bytes, with garbage around, or random. */
export function arbBytesMutation(bytes: Buffer): fc.Arbitrary<Buffer> {
  return fc.oneof(
    fc.nat({ max: bytes.length }).map((n) => bytes.subarray(0, n)),
    fc.array(fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }).map((flips) => {
      const copy = Buffer.from(bytes);
      for (const [at, mask] of flips) copy[at] = copy[at]! ^ mask;
      return copy;
    }),
    fc.uint8Array({ maxLength: 3_000 }).map((a) => Buffer.concat([bytes, Buffer.from(a)])),
    fc.uint8Array({ minLength: 0, maxLength: 3_000 }).map((a) => Buffer.from(a)),
    fc.constantFrom(Buffer.from([0x30, 0x80]), Buffer.from([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), Buffer.from([0x30, 0x82, 0x00, 0x00])),
  );
}
