import test from 'ava';
import fc from 'fast-check';
import http, { STATUS_CODES } from 'node:http';
import { startStack, captureLogs, type Stack } from '../support/stack.js';
import { ALL_SERVICES } from '../../services/index.js';
import { loginAs } from '../support/identity.js';
import { issueSandboxA1 } from '../../services/sefaz/simulator/sandbox-ca.js';
import { aCompleteIssuer } from '../services/issuer/support.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { aValidNfseBody } from '../support/nfse-factories.js';
import { CATALOG } from '../../lib/errors/index.js';
import { testTableCsv } from '../support/approximate-tax.js';
import {
  arbPathSegment, arbQueryString, arbRawBody, arbHostileBody, arbContentType, arbSchemaBody, arbMutation,
  applyMutation, arbHostileHeaders, arbCsvMutation, arbBytesMutation, type JsonSchema,
} from '../support/http-fuzz.js';

/**
 * API.md, Errors, as a property over the whole documented surface: no input, however malformed,
 * gets a 500 or crashes a service, and every refusal is the spec's envelope. The full stack runs
 * in this process; the routes come from GET /api-docs-json, so a new route is fuzzed without
 * touching this file. Seeds are constants (one per property, offset per route); a failure prints
 * the seed, the route, the shrunk request and what the gateway logged for a 5xx.
 *
 * For a longer hunt: FUZZ_SCALE=8 multiplies the runs, FUZZ_SEED=<n> changes every seed, FUZZ_DEBUG=1
 * prints the answers per route and status (to see which inputs reach the actions), e.g.
 * `FUZZ_SCALE=8 FUZZ_SEED=777 npx ava test/e2e/http-fuzz.test.ts --timeout=20m`.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

interface Route {
  method: string;
  /** OpenAPI path, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  auth: 'none' | 'any' | 'jwt' | 'superadmin';
  bodySchema?: JsonSchema;
}

type AuthKind = 'none' | 'badKey' | 'badBearer' | 'garbage' | 'liveKey' | 'testKey' | 'adminJwt' | 'superJwt';

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

let stack: Stack;
let routes: Route[] = [];
let port: number;
const creds: Record<Exclude<AuthKind, 'none' | 'badKey' | 'badBearer' | 'garbage'>, Record<string, string>> = {} as any;
let partnerId: string;
let issuerId: string;
/** A second issuer of the same partner, for the fuzz of writes to an issuer (PATCH, certificate). */
let spareIssuerId: string;
let nfeId: string;
let nfceId: string;
let nfseId: string;
let pfx: { pfxBase64: string; password: string };
const logs = captureLogs();
const crashes: string[] = [];
const onRejection = (reason: unknown) => crashes.push(`unhandledRejection: ${(reason as Error)?.stack ?? String(reason)}`);
const onException = (err: Error) => crashes.push(`uncaughtException: ${err?.stack ?? String(err)}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
/** Successful emissions and authority rejections of the main issuer made by the fuzz (each legitimately creates a document). */
const emitted = { nfe: 0, nfce: 0 };
let documentsBefore = { nfe: 0, nfce: 0 };

/** Routes whose success revokes a credential (`caller`: the one that called): it is renewed after a 2xx. */
const REVOKES: Record<string, AuthKind | 'caller'> = {
  'POST /v1/auth/logout': 'caller',
  'POST /v1/auth/change-password': 'caller',
  'POST /v1/auth/2fa/disable': 'caller',
  'POST /v1/auth/api-keys/regenerate': 'liveKey',
  'POST /v1/auth/api-keys/test/regenerate': 'testKey',
};

const SLUGS = new Set(Object.keys(CATALOG));
/** The only 5xx a refusal may carry: catalogued codes of their own (API.md, Errors), never a bare status. */
const ALLOWED_5XX = new Set(Object.entries(CATALOG)
  .filter(([code, e]) => e.status >= 502 && e.status <= 504 && !['BAD_GATEWAY', 'SERVICE_UNAVAILABLE', 'GATEWAY_TIMEOUT'].includes(code))
  .map(([code]) => code));
const ERROR_KEYS = new Set(['type', 'title', 'status', 'detail', 'errors', 'erros', 'details', 'instance', 'requestId', 'timestamp']);
const ERRORS_BASE = 'https://errors.test/';

function send(req: Sent): Promise<Got> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = Buffer.byteLength(req.body);
    const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.setTimeout(60_000, () => r.destroy(new Error('no answer in 60 s')));
    r.on('error', reject);
    // A string body would be written together with the head, both as UTF-8; a Buffer keeps the
    // head in latin1, so raw bytes of the path go out exactly as generated.
    r.end(typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body);
  });
}

function describe(req: Sent, res?: Got): string {
  const body = req.body === undefined ? '' : String(req.body);
  return `${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(req.headers).slice(0, 300)} body=${body.slice(0, 400)}${body.length > 400 ? `…(${body.length})` : ''}`
    + (res ? `\n→ ${res.status} ${res.text.slice(0, 600)}` : '');
}

/** The invariant of every answer; throws (so fast-check shrinks) with the request and answer. */
function checkAnswer(req: Sent, res: Got): void {
  const fail = (why: string) => { throw new Error(`${why}\n${describe(req, res)}`); };
  if (typeof res.headers['x-request-id'] !== 'string' || !res.headers['x-request-id']) fail('no X-Request-Id header');
  if (res.status >= 200 && res.status < 300) {
    const ct = String(res.headers['content-type'] ?? '');
    if (!ct.includes('json')) return; // raw downloads (XML)
    let body: any;
    try { body = JSON.parse(res.text); } catch { return fail('2xx JSON that does not parse'); }
    if (req.path.startsWith('/api-docs-json')) return;
    if (!body || typeof body !== 'object' || !('data' in body) || !body.meta) fail('2xx without the { data, meta } envelope');
    if (body.meta.requestId !== res.headers['x-request-id']) fail('meta.requestId differs from X-Request-Id');
    return;
  }
  if (res.status < 400 || res.status > 599) fail(`unexpected status ${res.status}`);
  let body: any;
  try { body = JSON.parse(res.text); } catch { return fail('error answer is not JSON'); }
  if (!body || typeof body !== 'object' || Array.isArray(body)) fail('error answer is not an object');
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'error') fail(`envelope has top-level keys ${keys.join(',')}`);
  const e = body.error;
  for (const k of Object.keys(e)) if (!ERROR_KEYS.has(k)) fail(`unexpected error field ${k}`);
  for (const k of ['type', 'title', 'status', 'detail', 'instance', 'requestId', 'timestamp']) if (e[k] === undefined) fail(`missing error.${k}`);
  if (typeof e.type !== 'string' || !e.type.startsWith(ERRORS_BASE)) fail(`error.type ${e.type} is not under the errors base`);
  const slug = e.type.slice(ERRORS_BASE.length);
  if (!SLUGS.has(slug)) fail(`error.type slug ${slug} is not catalogued`);
  if (slug === 'RECUSA_NAO_CATALOGADA') fail('an uncatalogued code reached the client');
  // lib/nfe/xml/validate.ts: a document failing the XSD is a bug of ours, i.e. validation let through what the layout refuses.
  if (slug === 'XML_FORA_DO_ESQUEMA') fail('validation let through a value the layout refuses');
  if (e.status !== res.status) fail(`error.status ${e.status} differs from HTTP ${res.status}`);
  if ((CATALOG as Record<string, { status: number }>)[slug]!.status !== res.status) fail(`${slug} answered with ${res.status}`);
  if (e.title !== STATUS_CODES[res.status]) fail(`error.title ${e.title}`);
  if (typeof e.detail !== 'string' || !e.detail) fail('empty error.detail');
  // Node writes the request line as latin1; the gateway reads an unparseable one as UTF-8.
  if (e.instance !== Buffer.from(req.path.split('?')[0]!, 'latin1').toString('utf8')) fail(`error.instance ${e.instance}`);
  if (e.requestId !== res.headers['x-request-id']) fail('error.requestId differs from X-Request-Id');
  if (typeof e.timestamp !== 'string' || Number.isNaN(Date.parse(e.timestamp))) fail('error.timestamp is not ISO 8601');
  if (e.errors !== undefined) {
    if (res.status !== 400 || !Array.isArray(e.errors)) fail('errors[] outside a 400');
    for (const x of e.errors) if (typeof x?.field !== 'string' || typeof x?.message !== 'string' || Object.keys(x).length !== 2) fail(`malformed errors[] entry ${JSON.stringify(x)}`);
  }
  if (e.erros !== undefined) {
    if (e.errors !== undefined || !Array.isArray(e.erros)) fail('erros[] together with errors[] or not an array');
    for (const x of e.erros) if (typeof x?.codigo !== 'string' || typeof x?.descricao !== 'string') fail(`malformed erros[] entry ${JSON.stringify(x)}`);
  }
  if (e.details !== undefined && (typeof e.details !== 'object' || Array.isArray(e.details) || e.details === null)) fail('details is not an object');
  if (res.status === 405 && !res.headers.allow) fail('405 without Allow');
  if (res.status >= 500 && !ALLOWED_5XX.has(slug)) fail(`${res.status} ${slug}: a crash, not a refusal`);
}

function routeKey(r: Route): string {
  return `${r.method} ${r.path}`;
}

function authHeaders(kind: AuthKind): Record<string, string> {
  switch (kind) {
    case 'none': return {};
    case 'badKey': return { 'x-api-key': 'ek_live_0000000000000000000000000000000000000000' };
    case 'badBearer': return { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' };
    case 'garbage': return { authorization: 'Basic \u00ff\u00fe%%', 'x-api-key': ' ' };
    default: return { ...creds[kind] };
  }
}

/** The credential a route wants, most of the time, so the input reaches validation and the action. */
function arbAuth(route: Route): fc.Arbitrary<AuthKind> {
  const right: AuthKind = route.auth === 'none' ? 'none' : route.auth === 'jwt' ? 'adminJwt' : route.auth === 'superadmin' ? 'superJwt' : 'liveKey';
  const all: AuthKind[] = ['none', 'badKey', 'badBearer', 'garbage', 'liveKey', 'testKey', 'adminJwt', 'superJwt'];
  return fc.oneof({ arbitrary: fc.constant(right), weight: 8 }, { arbitrary: fc.constantFrom(...all), weight: 3 });
}

/** Ids that exist, for reads only: a write with a real id could delete what the rest of the file needs. */
function knownIds(route: Route): string[] {
  if (route.method !== 'GET') return [];
  if (route.path.startsWith('/v1/companies')) return [issuerId];
  if (route.path.startsWith('/v1/nfce/{')) return [nfceId];
  if (route.path.startsWith('/v1/nfe/{')) return [nfeId];
  if (route.path.startsWith('/v1/nfse/{')) return [nfseId];
  return [];
}

function arbValidishId(route: Route): fc.Arbitrary<string> {
  const known = knownIds(route);
  return known.length ? fc.oneof(fc.uuid(), fc.constantFrom(...known)) : fc.uuid();
}

function fillPath(route: Route, values: string[]): string {
  let i = 0;
  return route.path.replace(/\{[^}]+\}/g, () => values[i++] ?? 'x');
}

/** Sends, checks, and keeps the books: renewed credentials, documents legitimately created. */
/** Answers seen per route and status (FUZZ_DEBUG=1 prints them), to see which inputs reach the actions. */
const seen = new Map<string, Map<string, number>>();

async function exchange(route: Route, req: Sent, auth: AuthKind): Promise<Got> {
  let res: Got;
  try {
    res = await send(req);
  } catch (err) {
    throw new Error(`no HTTP answer (${(err as Error).message})\n${describe(req)}`);
  }
  const bySlug = seen.get(routeKey(route)) ?? new Map<string, number>();
  const slug = /"type":"https:\/\/errors\.test\/([A-Z_]+)"/.exec(res.text)?.[1] ?? '';
  bySlug.set(`${res.status} ${slug}`, (bySlug.get(`${res.status} ${slug}`) ?? 0) + 1);
  seen.set(routeKey(route), bySlug);
  const revoked = REVOKES[routeKey(route)];
  if (revoked && res.status < 300) await renew(revoked === 'caller' ? auth : revoked);
  if (req.method === 'POST' && (req.path === '/v1/nfe' || req.path === '/v1/nfce')) {
    const created = res.status === 201 || (res.status === 400 && res.text.includes('"erros"'));
    if (created) emitted[req.path === '/v1/nfe' ? 'nfe' : 'nfce']++;
  }
  try {
    checkAnswer(req, res);
  } catch (err) {
    // A 5xx: add what the gateway logged for this request (its message and the top of the stack).
    const requestId = res.headers['x-request-id'];
    const logged = res.status >= 500 ? logs.lines().filter((l) => l.requestId === requestId && l.err).map((l) => `${l.err.message}\n${String(l.err.stack ?? '').split('\n').slice(0, 8).join('\n')}`) : [];
    throw new Error([(err as Error).message, ...logged].join('\nlogged: '));
  }
  if (crashes.length) throw new Error(`${crashes.join('\n')}\n${describe(req, res)}`);
  return res;
}

async function renew(kind: AuthKind): Promise<void> {
  const broker = stack.nodes[0]!;
  if (kind === 'adminJwt') creds.adminJwt = (await loginAs(stack, { role: 'ADMIN', partnerId })).headers;
  if (kind === 'superJwt') creds.superJwt = (await loginAs(stack, { role: 'SUPERADMIN' })).headers;
  if (kind === 'liveKey' || kind === 'testKey') {
    const key: any = await broker.call('v1.auth.issueKey', { partnerId, kind: kind === 'liveKey' ? 'live' : 'test' });
    creds[kind] = { 'x-api-key': key.apiKey };
  }
}

async function documentCount(model: 'nfe' | 'nfce'): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const res: any = await stack.request('GET', `/v1/${model}?issuerId=${issuerId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: creds.liveKey });
    if (res.status !== 200) throw new Error(`list ${model}: ${res.status} ${res.text}`);
    count += res.body.data.items.length;
    cursor = res.body.data.nextCursor;
  } while (cursor);
  return count;
}

function seedFor(property: number, route: Route): number {
  let h = BASE_SEED + property * 7919;
  for (const ch of routeKey(route)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/** Runs one property for every route, reporting all failing routes (with their seed) at once. */
async function forEveryRoute(t: any, property: number, pick: (r: Route) => boolean, numRuns: number, prop: (r: Route) => fc.IAsyncPropertyWithHooks<any> | fc.IAsyncProperty<any>) {
  const failures: string[] = [];
  let total = 0;
  for (const route of routes.filter(pick)) {
    const seed = seedFor(property, route);
    const result = await fc.check(prop(route), { seed, numRuns, endOnFailure: false, interruptAfterTimeLimit: 60_000 });
    total += result.numRuns;
    if (result.failed) failures.push(`${routeKey(route)} (seed ${seed}, path "${result.counterexamplePath}"):\n${(result.errorInstance as Error)?.message ?? String(result.error)}`);
  }
  t.log(`${total} requests`);
  t.deepEqual(failures, [], failures.join('\n\n'));
}

test.before(async () => {
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  stack = await startStack({ nodes: [{ services: [...ALL_SERVICES], logDestination: logs.stream }], env: { IP_RATE_LIMIT: '100000', LOG_LEVEL: 'error' } });
  port = Number(new URL(stack.url).port);
  const broker = stack.nodes[0]!;
  // Enterprise with a high limit: the fuzz must reach the actions, not the rate limiter.
  const partner: any = await broker.call('v1.auth.createPartner', {
    name: 'Parceiro do fuzz', ownerEmail: 'owner-fuzz@example.com', ownerName: 'Owner', ownerPassword: 'Senha-de-teste-123',
    plan: 'ENTERPRISE', subscription: 'ACTIVE', enterpriseRateLimit: 1_000_000,
  });
  partnerId = partner.partnerId;
  await renew('liveKey');
  await renew('testKey');
  await renew('adminJwt');
  await renew('superJwt');

  const company = await stack.request('POST', '/v1/companies', { headers: creds.liveKey, body: aCompleteIssuer({ crt: 3, csc: 'CSC0TESTE0SANDBOX0001', cscId: '000001', inscricaoMunicipal: '12345678', servicoPadraoLc116: '1.01', fiscalBrainEnabled: true }) });
  if (company.status !== 201) throw new Error(`company: ${company.status} ${company.text}`);
  issuerId = company.body.data.issuerId;
  const a1 = issueSandboxA1(stack.config.sefaz.simulatorDir, { cnpj: company.body.data.cnpj, password: 'senha-do-a1' });
  pfx = { pfxBase64: a1.pfxBase64, password: a1.password };
  const cert = await stack.request('POST', `/v1/companies/${issuerId}/certificate`, { headers: creds.liveKey, body: pfx });
  if (cert.status !== 201 && cert.status !== 200) throw new Error(`certificate: ${cert.status} ${cert.text}`);
  const spare = await stack.request('POST', '/v1/companies', { headers: creds.liveKey, body: aCompleteIssuer({ crt: 3 }) });
  if (spare.status !== 201) throw new Error(`spare company: ${spare.status} ${spare.text}`);
  spareIssuerId = spare.body.data.issuerId;

  const nfe = await stack.request('POST', '/v1/nfe', { headers: creds.liveKey, body: aValidNfeBody({ issuerId }) });
  if (nfe.status !== 201) throw new Error(`nfe: ${nfe.status} ${nfe.text}`);
  nfeId = nfe.body.data.id;
  const nfce = await stack.request('POST', '/v1/nfce', { headers: creds.liveKey, body: aValidNfceBody({ issuerId }) });
  if (nfce.status !== 201) throw new Error(`nfce: ${nfce.status} ${nfce.text}`);
  nfceId = nfce.body.data.id;
  const nfse = await stack.request('POST', '/v1/nfse', { headers: creds.liveKey, body: aValidNfseBody({ issuerId, dpsNacional: { opSimpNac: 1, cTribNac: '010101', tribISSQN: 1 } }) });
  if (nfse.status !== 201) throw new Error(`nfse: ${nfse.status} ${nfse.text}`);
  nfseId = nfse.body.data.id;
  documentsBefore = { nfe: await documentCount('nfe'), nfce: await documentCount('nfce') };

  const docs = await stack.request('GET', '/api-docs-json');
  if (docs.status !== 200) throw new Error(`api-docs-json: ${docs.status}`);
  const openapi = docs.body.data ?? docs.body;
  for (const [path, ops] of Object.entries<any>(openapi.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const security: any[] = op.security ?? [];
      const params: any[] = op.parameters ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        auth: !security.length ? 'none' : (op['x-roles'] ?? []).includes('SUPERADMIN') ? 'superadmin' : security.some((s) => 'apiKey' in s) ? 'any' : 'jwt',
        bodySchema: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
});

test.after.always(async () => {
  if (process.env.FUZZ_DEBUG) for (const [k, m] of seen) console.log(k, JSON.stringify(Object.fromEntries(m)));
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
  agent.destroy();
  await stack?.stop();
});

test.serial('the OpenAPI document lists the whole public surface that is fuzzed below', (t) => {
  t.true(routes.length >= 70, `${routes.length} routes`);
  for (const r of ['POST /v1/nfe', 'POST /v1/nfce', 'POST /v1/companies', 'POST /v1/auth/login', 'GET /health', 'PATCH /v1/webhooks/config']) {
    t.true(routes.some((x) => routeKey(x) === r), r);
  }
});

test.serial('random JSON bodies and hostile keys, numbers, sizes and nesting get the envelope on every route', async (t) => {
  t.timeout(180_000);
  await forEveryRoute(t, 1, () => true, runs(60), (route) => fc.asyncProperty(
    arbAuth(route), fc.array(arbValidishId(route), { minLength: route.pathParams.length, maxLength: route.pathParams.length }), arbHostileBody(),
    async (auth, ids, body) => {
      await exchange(route, { method: route.method, path: fillPath(route, ids), headers: { ...authHeaders(auth), 'content-type': 'application/json' }, body }, auth);
    },
  ));
});

test.serial('bodies shaped like each route\'s schema, with wrong types and extremes inside, get the envelope', async (t) => {
  t.timeout(180_000);
  await forEveryRoute(t, 2, (r) => !!r.bodySchema, runs(80), (route) => fc.asyncProperty(
    fc.array(arbValidishId(route), { minLength: route.pathParams.length, maxLength: route.pathParams.length }), arbSchemaBody(route.bodySchema!),
    async (ids, value) => {
      const auth: AuthKind = route.auth === 'none' ? 'none' : route.auth === 'jwt' ? 'adminJwt' : route.auth === 'superadmin' ? 'superJwt' : 'liveKey';
      await exchange(route, { method: route.method, path: fillPath(route, ids), headers: { ...authHeaders(auth), 'content-type': 'application/json' }, body: value }, auth);
    },
  ));
});

test.serial('garbage path parameters (non-UUID, unicode, dot segments, bad percent-encoding) get the envelope', async (t) => {
  t.timeout(180_000);
  await forEveryRoute(t, 3, (r) => r.pathParams.length > 0, runs(100), (route) => fc.asyncProperty(
    arbAuth(route), fc.array(arbPathSegment(), { minLength: route.pathParams.length, maxLength: route.pathParams.length }),
    async (auth, segments) => {
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      await exchange(route, { method: route.method, path: fillPath(route, segments), headers: { ...authHeaders(auth), ...(hasBody ? { 'content-type': 'application/json' } : {}) }, ...(hasBody ? { body: '{}' } : {}) }, auth);
    },
  ));
});

test.serial('random query strings (repeated keys, brackets, prototype keys, extremes) get the envelope', async (t) => {
  t.timeout(180_000);
  await forEveryRoute(t, 4, () => true, runs(80), (route) => fc.asyncProperty(
    arbAuth(route), fc.array(arbValidishId(route), { minLength: route.pathParams.length, maxLength: route.pathParams.length }), arbQueryString(route.queryParams),
    async (auth, ids, query) => {
      await exchange(route, { method: route.method, path: `${fillPath(route, ids)}?${query}`, headers: authHeaders(auth) }, auth);
    },
  ));
  t.is(({} as any).polluted, undefined, 'Object.prototype was polluted through a query string');
});

test.serial('malformed JSON text, wrong content types, charsets and encodings get the envelope', async (t) => {
  t.timeout(180_000);
  await forEveryRoute(t, 5, () => true, runs(60), (route) => fc.asyncProperty(
    arbAuth(route), fc.array(arbValidishId(route), { minLength: route.pathParams.length, maxLength: route.pathParams.length }), arbRawBody(), arbContentType(),
    async (auth, ids, body, headers) => {
      await exchange(route, { method: route.method, path: fillPath(route, ids), headers: { ...authHeaders(auth), ...headers }, body }, auth);
    },
  ));
});

test.serial('hostile Authorization, x-api-key, Idempotency-Key and X-Request-Id values get the envelope', async (t) => {
  t.timeout(180_000);
  await forEveryRoute(t, 7, () => true, runs(50), (route) => fc.asyncProperty(
    arbAuth(route), fc.array(arbValidishId(route), { minLength: route.pathParams.length, maxLength: route.pathParams.length }), arbHostileHeaders(), fc.boolean(),
    async (auth, ids, hostile, keepAuth) => {
      // keepAuth: the right credential stays, so Idempotency-Key and X-Request-Id reach the action.
      const headers = keepAuth ? { ...hostile, ...authHeaders(auth) } : { ...authHeaders(auth), ...hostile };
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
      await exchange(route, { method: route.method, path: fillPath(route, ids), headers: { ...headers, ...(hasBody ? { 'content-type': 'application/json' } : {}) }, ...(hasBody ? { body: '{}' } : {}) }, auth);
    },
  ));
});

/** Valid bodies of the routes with the deepest rules; the property mutates one spot in them. */
function validBodies(): { route: string; path: () => string; body: () => unknown; auth: AuthKind }[] {
  return [
    { route: 'POST /v1/nfe', path: () => '/v1/nfe', body: () => aValidNfeBody({ issuerId }), auth: 'liveKey' },
    { route: 'POST /v1/nfce', path: () => '/v1/nfce', body: () => aValidNfceBody({ issuerId }), auth: 'liveKey' },
    { route: 'POST /v1/nfse', path: () => '/v1/nfse', body: () => aValidNfseBody({ issuerId, dpsNacional: { opSimpNac: 1, cTribNac: '010101', tribISSQN: 1 } }), auth: 'liveKey' },
    { route: 'POST /v1/fiscal/resolve-servico', path: () => '/v1/fiscal/resolve-servico', body: () => ({ issuerId, lc116: '1.01', municipio: '3550308', valor: 10, dataEmissao: '2026-11-22' }), auth: 'liveKey' },
    // The spare issuer: a batch that passes creates its notes later, outside the count of the main issuer.
    { route: 'POST /v1/nfe/batch', path: () => '/v1/nfe/batch', body: () => ({ notas: [aValidNfeBody({ issuerId: spareIssuerId }), aValidNfeBody({ issuerId: spareIssuerId })] }), auth: 'testKey' },
    { route: 'POST /v1/companies', path: () => '/v1/companies', body: () => aCompleteIssuer({ crt: 3, csc: 'CSC0TESTE0SANDBOX0001', cscId: '000001' }), auth: 'liveKey' },
    { route: 'PATCH /v1/companies/{id}', path: () => `/v1/companies/${spareIssuerId}`, body: () => ({ razaoSocial: 'EMPRESA FUZZ LTDA', crt: 1, endereco: { numero: '200' }, pTotTribSNPadrao: 4.5, pTotTribSNCompetencia: '2026-01' }), auth: 'liveKey' },
    { route: 'POST /v1/companies/{id}/certificate', path: () => `/v1/companies/${spareIssuerId}/certificate`, body: () => ({ ...pfx }), auth: 'liveKey' },
    { route: 'POST /v1/nfe/inutilizacao', path: () => '/v1/nfe/inutilizacao', body: () => ({ issuerId, serie: 1, numeroInicial: 900000, numeroFinal: 900001, justificativa: 'Numeracao pulada pelo sistema legado' }), auth: 'liveKey' },
    // The correction first: a cancellation that passes ends the document's events.
    { route: 'POST /v1/nfe/{id}/carta-correcao', path: () => `/v1/nfe/${nfeId}/carta-correcao`, body: () => ({ correcao: 'Correcao do endereco do destinatario para Rua B' }), auth: 'liveKey' },
    { route: 'POST /v1/nfe/{id}/cancelamento', path: () => `/v1/nfe/${nfeId}/cancelamento`, body: () => ({ justificativa: 'Cancelamento por erro de digitacao' }), auth: 'liveKey' },
    { route: 'PATCH /v1/webhooks/config', path: () => '/v1/webhooks/config', body: () => ({ webhookUrl: 'https://example.com/hook', events: [] }), auth: 'liveKey' },
    { route: 'POST /v1/auth/login', path: () => '/v1/auth/login', body: () => ({ email: 'ninguem@example.com', password: 'Senha-errada-123' }), auth: 'none' },
  ];
}

test.serial('one mutation anywhere in a valid body (wrong type, extreme, hostile key, huge value) gets the envelope', async (t) => {
  t.timeout(180_000);
  const failures: string[] = [];
  let total = 0;
  for (const [i, v] of validBodies().entries()) {
    const route = routes.find((r) => routeKey(r) === v.route);
    if (!route) { failures.push(`${v.route} is not documented`); continue; }
    const seed = BASE_SEED + 6 * 7919 + i;
    const result = await fc.check(fc.asyncProperty(fc.array(arbMutation(), { minLength: 1, maxLength: 3 }), async (mutations) => {
      let text = JSON.stringify(v.body());
      for (const m of mutations) text = applyMutation(text, m);
      await exchange(route, { method: route.method, path: v.path(), headers: { ...authHeaders(v.auth), 'content-type': 'application/json' }, body: text }, v.auth);
    }), { seed, numRuns: runs(v.route.startsWith('POST /v1/nf') ? 800 : 150), endOnFailure: false, interruptAfterTimeLimit: 60_000 });
    total += result.numRuns;
    if (result.failed) failures.push(`${v.route} (seed ${seed}, path "${result.counterexamplePath}"):\n${(result.errorInstance as Error)?.message ?? String(result.error)}`);
  }
  t.log(`${total} requests`);
  t.deepEqual(failures, [], failures.join('\n\n'));
});

test.serial('mangled files inside valid bodies (an IBPT table CSV, an A1 certificate) get the envelope', async (t) => {
  t.timeout(180_000);
  const failures: string[] = [];
  const route = (key: string) => routes.find((r) => routeKey(r) === key)!;
  const csv = testTableCsv();
  const pfxBytes = Buffer.from(pfx.pfxBase64, 'base64');
  const cases = [
    { key: 'POST /v1/admin/tributos-aproximados', path: '/v1/admin/tributos-aproximados', auth: 'superJwt' as const, runs: 200,
      arb: fc.tuple(arbCsvMutation(csv), fc.constantFrom(undefined, 'SP', 'RJ'), fc.constantFrom(undefined, 'TabelaIBPTaxSP99.9.T.csv', 'x.csv', 'Tabela.csv'))
        .map(([bytes, uf, nomeArquivo]) => ({ conteudo: bytes.toString('base64'), ...(uf ? { uf } : {}), ...(nomeArquivo ? { nomeArquivo } : {}) })) },
    { key: 'POST /v1/companies/{id}/certificate', path: `/v1/companies/${spareIssuerId}/certificate`, auth: 'liveKey' as const, runs: 200,
      arb: fc.tuple(arbBytesMutation(pfxBytes), fc.constantFrom(pfx.password, '', 'x', 'senha errada', 'ç'.repeat(300)))
        .map(([bytes, password]) => ({ pfxBase64: bytes.toString('base64') || 'AAAA', password })) },
  ];
  let total = 0;
  for (const [i, c] of cases.entries()) {
    const seed = BASE_SEED + 8 * 7919 + i;
    const result = await fc.check(fc.asyncProperty(c.arb, async (body) => {
      await exchange(route(c.key), { method: 'POST', path: c.path, headers: { ...authHeaders(c.auth), 'content-type': 'application/json' }, body: JSON.stringify(body) }, c.auth);
    }), { seed, numRuns: runs(c.runs), endOnFailure: false, interruptAfterTimeLimit: 60_000 });
    total += result.numRuns;
    if (result.failed) failures.push(`${c.key} (seed ${seed}, path "${result.counterexamplePath}"):\n${(result.errorInstance as Error)?.message ?? String(result.error)}`);
  }
  t.log(`${total} requests`);
  t.deepEqual(failures, [], failures.join('\n\n'));
});

test.serial('after the fuzz: the service still answers, refused emissions consumed nothing, nothing crashed or logged an internal error', async (t) => {
  const health = await stack.request('GET', '/health');
  t.is(health.status, 200, health.text);
  const me = await stack.request('GET', '/v1/auth/me', { headers: creds.liveKey });
  t.is(me.status, 200, me.text);
  t.is(await documentCount('nfe'), documentsBefore.nfe + emitted.nfe, 'a refused NF-e left a document behind');
  t.is(await documentCount('nfce'), documentsBefore.nfce + emitted.nfce, 'a refused NFC-e left a document behind');
  const ok = await stack.request('POST', '/v1/nfe', { headers: creds.liveKey, body: aValidNfeBody({ issuerId }) });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.status, 'AUTHORIZED');
  t.deepEqual(crashes, []);
  const internal = logs.lines().filter((l) => l.level >= 50);
  t.deepEqual(internal.map((l) => `${l.msg} ${JSON.stringify(l.err ?? '')}`), []);
  t.is(({} as any).polluted, undefined);
});
