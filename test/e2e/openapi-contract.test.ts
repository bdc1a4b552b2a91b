import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../support/stack.js';
import { integratorWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { CATALOG } from '../../lib/errors/index.js';
import { describePattern } from '../../lib/validation/pattern-descriptions.js';

/** Issue 21, items 4 to 6: the served contract lints clean, documents every operation, and explains every error. */
let stack: Stack;
let doc: any;
test.before(async () => {
  stack = await startStack({ env: { ERRORS_BASE: 'http://api.test/errors' } });
  doc = (await stack.request('GET', '/api-docs-json')).body;
});
test.after.always(async () => { await stack?.stop(); });

const operations = () => Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

test('redocly lint (recommended ruleset) finds 0 errors in the served document, and every example conforms to its schema', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    // redocly exits 1 when it finds errors; the JSON report is what the test reads either way.
    const out = await promisify(execFile)(join(process.cwd(), 'node_modules/.bin/redocly'), ['lint', 'openapi.json', '--format=json', '--config', join(process.cwd(), 'redocly.yaml')], { cwd: dir, maxBuffer: 64 * 1024 * 1024 })
      .catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(out.stdout.slice(out.stdout.indexOf('{')));
    const errors = report.problems.filter((p: any) => p.severity === 'error');
    t.is(report.totals.errors, 0, JSON.stringify(errors.slice(0, 5), null, 1));
    t.deepEqual(report.problems.filter((p: any) => p.ruleId === 'no-invalid-media-type-examples').map((p: any) => p.message), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every write operation has a request body with an example, every JSON 2xx a typed data, and no parameter twice', (t) => {
  const writes = operations().filter(({ method }) => ['post', 'put', 'patch'].includes(method));
  t.true(writes.length > 30);
  for (const { path, method, op } of writes) {
    const body = op.requestBody?.content?.['application/json'];
    t.truthy(body?.schema, `${method} ${path} has no requestBody`);
    t.not(body?.example, undefined, `${method} ${path} has no example`);
  }
  for (const { path, method, op } of operations()) {
    const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1] as any;
    const data = success?.content?.['application/json']?.schema?.properties?.data;
    if (data) t.true(Boolean(data.$ref || data.properties || data.items || data.anyOf || data.oneOf), `${method} ${path}: untyped data`);
    const names = (op.parameters ?? []).map((p: any) => `${p.in}:${p.name.toLowerCase()}`);
    t.is(new Set(names).size, names.length, `${method} ${path}: duplicated parameter`);
  }
  // The NFS-e body is the schema that runs, with its example.
  t.truthy(doc.paths['/v1/nfse'].post.requestBody.content['application/json'].schema.properties.servico);
  t.truthy(doc.paths['/v1/nfse'].post.requestBody.content['application/json'].example);
  t.deepEqual(doc.paths['/v1/nfe/{id}'].get.responses['200'].content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Documento' });
});

test('the document has reusable components, described tags and a licence', (t) => {
  for (const name of ['ErrorEnvelope', 'Meta', 'Documento', 'ListaDocumentos', 'Lote', 'ItemLote']) t.truthy(doc.components.schemas[name], name);
  const used = new Set(operations().flatMap(({ op }) => op.tags ?? []));
  t.deepEqual(doc.tags.map((x: any) => x.name).sort(), [...used].sort());
  for (const tag of doc.tags) t.true(tag.description.length > 10, tag.name);
  t.is(doc.info.license.name, 'Proprietária: uso sob contrato com o provedor');
});

test('each error type URI resolves to a page with the code, its cause and its fix; an unknown code and an unknown route keep their 404', async (t) => {
  const missing = await stack.request('GET', '/v1/nao-existe');
  t.is(missing.status, 404);
  t.deepEqual(missing.body, {
    error: {
      type: 'http://api.test/errors/NOT_FOUND', title: 'Not Found', status: 404, detail: 'Rota não encontrada.',
      instance: '/v1/nao-existe', requestId: missing.headers.get('x-request-id'), timestamp: missing.body.error.timestamp,
    },
  });
  const page = await stack.request('GET', new URL(missing.body.error.type).pathname);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.true(page.text.includes('<code>NOT_FOUND</code>'));
  t.true(page.text.includes(CATALOG.NOT_FOUND.fix));
  const index = await stack.request('GET', '/errors');
  for (const code of Object.keys(CATALOG)) t.true(index.text.includes(`id="${code}"`), code);
  const unknown = await stack.request('GET', '/errors/NAO_EXISTE');
  t.is(unknown.status, 404);
  t.is(unknown.body.error.detail, 'Código de erro fora do catálogo.');
});

test('every pattern of the schemas that run has Portuguese words for its refusal (issue 21, item 6)', (t) => {
  const patterns = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) if (k === 'pattern' && typeof v === 'string') patterns.add(v); else walk(v);
    }
  };
  walk(doc.paths);
  t.true(patterns.size > 20);
  t.deepEqual([...patterns].filter((p) => describePattern(p) === undefined), []);
});

test('a malformed NCM is refused in Portuguese words, without the regular expression (issue 21, item 6)', async (t) => {
  const { headers } = await integratorWithA1(stack, { crt: 3 });
  const body = aValidNfeBody();
  body.items[0].ncm = '123';
  const res = await stack.request('POST', '/v1/nfe', { headers, body });
  t.is(res.status, 400, res.text);
  t.is(res.body.error.type, 'http://api.test/errors/VALIDATION_ERROR');
  t.deepEqual(res.body.error.errors, [{ field: 'items[0].ncm', message: "O campo 'items[0].ncm' deve ter 2 ou 8 dígitos." }]);
});

test('the served document lists the headers the gateway sends and the error statuses the routes answer', (t) => {
  const nfe = doc.paths['/v1/nfe'].post.responses;
  t.truthy(nfe['201'].headers.Location);
  t.truthy(nfe['201'].headers['Idempotent-Replayed']);
  t.truthy(nfe['415']);
  t.truthy(nfe['413']);
  t.truthy(doc.paths['/v1/nfse'].post.responses['201'].headers.Location);
  t.regex(doc.paths['/v1/nfe/{id}/xml'].get.responses['200'].headers['Content-Disposition'].description, /^attachment/);
  t.regex(doc.paths['/v1/nfe/{id}/danfe.html'].get.responses['200'].headers['Content-Disposition'].description, /^inline/);
  t.truthy(doc.paths['/v1/nfe/{id}'].get.responses['404']);
  t.regex(doc.paths['/v1/companies'].post.responses['409'].description, /CNPJ_CONFLICT/);
  t.regex(doc.paths['/v1/nfe/{id}/danfe.pdf'].get.responses['409'].description, /DOCUMENTO_SEM_DANFE/);
  t.truthy(doc.paths['/v1/auth/login'].post.responses['401']);
  t.truthy(doc.paths['/v1/companies/transfer-request'].post.responses['404']);
  t.truthy(doc.paths['/v1/fiscal/tributos-aproximados'].get.responses['404']);
  t.deepEqual(nfe['429'].headers['Retry-After'].schema, { type: 'integer', const: 1 });
  t.truthy(doc.paths['/health'].get.responses['429'].headers['Retry-After']);
  // Every error of every operation is the envelope with X-RateLimit-* and X-Request-Id.
  for (const { path, method, op } of operations()) {
    for (const [status, res] of Object.entries<any>(op.responses)) {
      if (/^[23]/.test(status)) continue;
      t.deepEqual(res.content?.['application/json']?.schema, { $ref: '#/components/schemas/ErrorEnvelope' }, `${method} ${path} ${status}`);
      t.truthy(res.headers?.['X-Request-Id'] && res.headers?.['X-RateLimit-Limit'], `${method} ${path} ${status} headers`);
    }
  }
  // A secret reveal ignores the key (idempotency: false): no replay documented.
  t.falsy(doc.paths['/v1/webhooks/secret/regenerate'].post.parameters?.some((p: any) => p.name === 'Idempotency-Key'));
});

test('a real refusal carries what the document says: 415 and 404 with X-RateLimit-* and X-Request-Id, a replay with Idempotent-Replayed', async (t) => {
  const { headers } = await integratorWithA1(stack, { crt: 3 });
  const unsupported = await stack.request('POST', '/v1/nfe', { headers: { ...headers, 'content-type': 'text/plain' }, rawBody: 'x' });
  t.is(unsupported.status, 415, unsupported.text);
  const missing = await stack.request('GET', '/v1/nfe/0b1f6f2e-5a39-4c8e-9d52-3b9f0f7a1c11', { headers });
  t.is(missing.status, 404, missing.text);
  for (const res of [unsupported, missing]) {
    t.truthy(res.headers.get('x-ratelimit-limit'));
    t.truthy(res.headers.get('x-request-id'));
  }
  const key = { ...headers, 'Idempotency-Key': 'openapi-contract-replay' };
  const body = aValidNfeBody();
  const first = await stack.request('POST', '/v1/nfe', { headers: key, body });
  const again = await stack.request('POST', '/v1/nfe', { headers: key, body });
  t.is(again.status, first.status, again.text);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  if (first.status === 201) t.is(again.headers.get('location'), first.headers.get('location'));
});
