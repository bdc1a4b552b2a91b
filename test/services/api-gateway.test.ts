import test from 'ava';
import { startStack, captureLogs, type Stack } from '../support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../support/fake-auth.js';
import { createTestKit } from '../support/testkit.service.js';
import { ManualClock } from '../../services/shared/clock.js';
import { rawExchange } from '../support/raw-http.js';

const KEY = { 'x-api-key': fakeCallerKey({ partnerId: 'p-gw', plan: 'SCALE' }) };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const counters: Record<string, number> = {};
let stack: Stack;

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway'], extra: [FakeAuthService, createTestKit(counters)] }], env: { BODY_LIMIT: '2kb' } });
});
test.after.always(() => stack?.stop());

test('gateway wraps success as { data, meta } and echoes X-Request-Id', async (t) => {
  const res = await stack.request('GET', '/v1/kit/ok', { headers: { ...KEY, 'x-request-id': 'client-req-0001' } });
  t.is(res.status, 200);
  t.deepEqual(res.body.data, { hello: 'mundo' });
  t.is(res.body.meta.requestId, 'client-req-0001');
  t.regex(res.body.meta.timestamp, ISO);
  t.is(res.headers.get('x-request-id'), 'client-req-0001');
});

test('gateway replaces a malformed incoming request id and propagates it to the action context', async (t) => {
  const res = await stack.request('GET', '/v1/kit/caller', { headers: { ...KEY, 'x-request-id': 'bad id with spaces' } });
  t.regex(res.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  t.is(res.body.data.requestId, res.headers.get('x-request-id'));
  t.is(res.body.data.partnerId, 'p-gw');
});

test('gateway answers 201 when the action declares it', async (t) => {
  const res = await stack.request('POST', '/v1/kit/things', { headers: KEY, body: { name: 'abc' } });
  t.is(res.status, 201);
  t.is(res.body.data.name, 'abc');
});

test('gateway renders a catalogued refusal with the full envelope', async (t) => {
  const res = await stack.request('POST', '/v1/kit/refuse', { headers: KEY, body: {} });
  t.is(res.status, 422);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/CFOP_IDDEST_DIVERGENTE', title: 'Unprocessable Entity', status: 422,
      detail: 'Itens com CFOP de destinos diferentes.', details: { items: [0, 1] }, instance: '/v1/kit/refuse',
      requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.regex(res.body.error.timestamp, ISO);
});

test('gateway refuses invalid params with 400 VALIDATION_ERROR, Portuguese messages and unknown fields', async (t) => {
  const res = await stack.request('POST', '/v1/kit/things', { headers: KEY, body: { name: 'a', valor: 1.005, extra: 1 } });
  t.is(res.status, 400);
  t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.is(res.body.error.title, 'Bad Request');
  t.deepEqual(res.body.error.errors.map((e: any) => e.field).sort(), ['extra', 'name', 'valor']);
  t.deepEqual(res.body.error.details, { camposDesconhecidos: [{ campo: 'extra', caminho: 'extra', objeto: '' }] });
  t.false('erros' in res.body.error);
});

test('gateway carries a fiscal rejection as 400 BAD_REQUEST with erros[] only', async (t) => {
  const res = await stack.request('POST', '/v1/kit/fiscal', { headers: KEY, body: {} });
  t.is(res.status, 400);
  t.is(res.body.error.type, 'https://errors.test/BAD_REQUEST');
  t.deepEqual(res.body.error.erros, [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso' }]);
  t.false('errors' in res.body.error);
});

test('gateway maps an uncatalogued code to RECUSA_NAO_CATALOGADA keeping the status', async (t) => {
  const res = await stack.request('GET', '/v1/kit/private', { headers: KEY });
  t.is(res.status, 409);
  t.is(res.body.error.type, 'https://errors.test/RECUSA_NAO_CATALOGADA');
});

test('gateway hides the text of an internal failure behind INTERNAL_ERROR', async (t) => {
  const res = await stack.request('GET', '/v1/kit/crash', { headers: KEY });
  t.is(res.status, 500);
  t.is(res.body.error.type, 'https://errors.test/INTERNAL_ERROR');
  t.notRegex(res.text, /secret|postgres/);
  t.is(res.body.error.requestId, res.headers.get('x-request-id'));
});

test('gateway answers 404 for an unknown route and 405 with Allow for a wrong method, in the envelope', async (t) => {
  const missing = await stack.request('GET', '/v1/nada', { headers: KEY });
  t.is(missing.status, 404);
  t.is(missing.body.error.type, 'https://errors.test/NOT_FOUND');
  t.is(missing.body.error.instance, '/v1/nada');
  const wrong = await stack.request('DELETE', '/v1/kit/ok', { headers: KEY });
  t.is(wrong.status, 405);
  t.is(wrong.body.error.type, 'https://errors.test/METHOD_NOT_ALLOWED');
  t.is(wrong.headers.get('allow'), 'GET');
});

test('gateway answers malformed JSON with 400 and an oversized body with 413', async (t) => {
  const bad = await stack.request('POST', '/v1/kit/things', { headers: { ...KEY, 'content-type': 'application/json' }, rawBody: '{"name": ' });
  t.is(bad.status, 400);
  t.is(bad.body.error.type, 'https://errors.test/BAD_REQUEST');
  t.is(bad.body.error.detail, 'Corpo da requisição não é JSON válido.');
  const big = await stack.request('POST', '/v1/kit/things', { headers: KEY, body: { name: 'x'.repeat(5000) } });
  t.is(big.status, 413);
  t.is(big.body.error.type, 'https://errors.test/PAYLOAD_TOO_LARGE');
  t.truthy(big.headers.get('x-request-id'));
});

test('gateway answers a body whose Content-Encoding does not inflate (gzip or deflate over plain or empty bytes) with 400 BAD_REQUEST, not 500', async (t) => {
  for (const [encoding, rawBody] of [['gzip', '{"name":"abc"}'], ['deflate', '{"name":"abc"}'], ['gzip', '']] as const) {
    const res = await stack.request('POST', '/v1/kit/things', { headers: { ...KEY, 'content-type': 'application/json', 'content-encoding': encoding }, rawBody });
    t.is(res.status, 400, `${encoding}: ${res.text}`);
    t.deepEqual(res.body, {
      error: {
        type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: 'Corpo da requisição ilegível.',
        instance: '/v1/kit/things', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
      },
    });
  }
  const anonymous = await stack.request('POST', '/v1/kit/things', { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, rawBody: 'x' });
  t.is(anonymous.status, 401, 'credentials are checked before the unreadable body');
});

test('gateway refuses U+0000 or a lone surrogate in the body, the query or a path with 400 VALIDATION_ERROR before the action runs', async (t) => {
  const body = await stack.request('POST', '/v1/kit/things', { headers: { ...KEY, 'content-type': 'application/json' }, rawBody: '{"name":"ab\\udfff\\ud800"}' });
  t.is(body.status, 400, body.text);
  t.is(body.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.deepEqual(body.body.error.errors, [{ field: 'name', message: "O campo 'name' contém caractere não permitido (U+0000 ou surrogate UTF-16 isolado)." }]);
  const nul = await stack.request('POST', '/v1/kit/things', { headers: KEY, body: { name: 'a\u0000bc' } });
  t.is(nul.status, 400);
  t.is(nul.body.error.errors[0].field, 'name');
  const query = await stack.request('GET', '/v1/kit/ok?q=%00', { headers: KEY });
  t.is(query.status, 400);
  t.deepEqual(query.body.error.errors.map((e: any) => e.field), ['q']);
  t.is((await stack.request('POST', '/v1/kit/things', { headers: KEY, body: { name: 'Ação 🤖' } })).status, 201);
});

test('gateway refuses a body nested deeper than 32 levels (300 here; 5 000 overflowed the stack: 500) with 400 BAD_REQUEST after authentication', async (t) => {
  const rawBody = `${'{"a":'.repeat(300)}1${'}'.repeat(300)}`; // the 2 kB BODY_LIMIT of this file
  const res = await stack.request('POST', '/v1/kit/things', { headers: { ...KEY, 'content-type': 'application/json' }, rawBody });
  t.is(res.status, 400, res.text);
  t.deepEqual(res.body.error, {
    type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: 'Corpo da requisição aninhado além de 32 níveis.',
    details: { profundidadeMaxima: 32 }, instance: '/v1/kit/things', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
  });
  t.is((await stack.request('POST', '/v1/kit/things', { headers: { 'content-type': 'application/json' }, rawBody })).status, 401);
});

test('gateway answers a request Node cannot parse (non-ASCII bytes in the path, a space, a control byte in a header) with the envelope, not a bare 400', async (t) => {
  for (const bytes of [
    Buffer.concat([Buffer.from('GET /v1/nfe/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
    Buffer.from('GET /v1/nfe/a b HTTP/1.1\r\nHost: x\r\n\r\n'),
    Buffer.from('GET /v1/nfe HTTP/1.1\r\nHost: x\r\nX-A: \x01\r\n\r\n'),
  ]) {
    const text = await rawExchange(stack.url, bytes);
    const [head, body] = text.split('\r\n\r\n');
    t.regex(head!, /^HTTP\/1\.1 400 Bad Request\r\n/, text);
    const requestId = /\r\nX-Request-Id: (\S+)/i.exec(head!)?.[1];
    t.truthy(requestId);
    const parsed = JSON.parse(body!);
    t.deepEqual(Object.keys(parsed.error).sort(), ['detail', 'instance', 'requestId', 'status', 'timestamp', 'title', 'type']);
    t.like(parsed.error, { type: 'https://errors.test/BAD_REQUEST', status: 400, title: 'Bad Request', detail: 'Requisição HTTP malformada.', requestId });
  }
});

test('gateway answers oversized headers with 431 CABECALHOS_GRANDES_DEMAIS in the envelope', async (t) => {
  const text = await rawExchange(stack.url, Buffer.from(`GET /v1/nfe HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
  t.regex(text, /^HTTP\/1\.1 431 /);
  t.is(JSON.parse(text.split('\r\n\r\n')[1]!).error.type, 'https://errors.test/CABECALHOS_GRANDES_DEMAIS');
});

test('gateway checks credentials before a body that does not parse: 401 without them, 400 with them', async (t) => {
  const raw = { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } };
  const anon = await stack.request('POST', '/v1/kit/things', raw);
  t.deepEqual([anon.status, anon.body.error.type], [401, 'https://errors.test/UNAUTHORIZED']);
  const known = await stack.request('POST', '/v1/kit/things', { ...raw, headers: { ...raw.headers, ...KEY } });
  t.deepEqual([known.status, known.body.error.type, known.body.error.detail], [400, 'https://errors.test/BAD_REQUEST', 'Corpo da requisição não é JSON válido.']);
  t.is(known.body.error.instance, '/v1/kit/things');
});

test('gateway refuses a request without credentials with 401 and enforces roles and JWT-only routes', async (t) => {
  const anon = await stack.request('GET', '/v1/kit/ok');
  t.is(anon.status, 401);
  t.is(anon.body.error.type, 'https://errors.test/UNAUTHORIZED');
  const notAdmin = await stack.request('GET', '/v1/kit/admin', { headers: KEY });
  t.is(notAdmin.status, 403);
  t.is(notAdmin.body.error.type, 'https://errors.test/PERMISSAO_INSUFICIENTE');
  const admin = await stack.request('GET', '/v1/kit/admin', { headers: { 'x-api-key': fakeCallerKey({ partnerId: 'p-adm', role: 'SUPERADMIN', plan: 'SCALE' }) } });
  t.is(admin.status, 200);
  const jwtOnly = await stack.request('GET', '/v1/kit/jwt', { headers: KEY });
  t.is(jwtOnly.status, 403);
  t.is(jwtOnly.body.error.type, 'https://errors.test/FORBIDDEN');
});

test('gateway serves public routes and monitoring without credentials', async (t) => {
  t.is((await stack.request('GET', '/v1/kit/public')).status, 200);
  const live = await stack.request('GET', '/health/live');
  t.deepEqual(live.body.data, { status: 'ok' });
  const version = await stack.request('GET', '/version');
  t.is(version.body.data.version, '2.1.0');
  const health = await stack.request('GET', '/health');
  t.is(health.status, 200);
  t.is(health.body.data.checks.database.status, 'up');
  t.is(health.body.data.checks.database.kind, 'postgres');
  t.true(health.body.data.checks.broker.services.includes('v1.kit'));
});

test('every authenticated response carries the rate-limit headers', async (t) => {
  const res = await stack.request('GET', '/v1/kit/ok', { headers: KEY });
  t.is(res.headers.get('x-ratelimit-limit'), '200');
  t.regex(res.headers.get('x-ratelimit-remaining')!, /^\d+$/);
  t.regex(res.headers.get('x-ratelimit-reset')!, /^\d{10}$/);
  const refused = await stack.request('POST', '/v1/kit/refuse', { headers: KEY, body: {} });
  t.is(refused.headers.get('x-ratelimit-limit'), '200');
});

/** X-RateLimit-* of one answer: the limit, and a remaining count and a reset (Unix seconds) of that window. */
function rateHeaders(res: { headers: Headers }): [string | null, boolean, boolean] {
  return [res.headers.get('x-ratelimit-limit'), /^\d+$/.test(res.headers.get('x-ratelimit-remaining') ?? ''), /^\d{10}$/.test(res.headers.get('x-ratelimit-reset') ?? '')];
}

test('every answer outside a partner\'s window carries X-RateLimit-* of the per-IP window: probes, /version, 404, 405, 413', async (t) => {
  const ipWindow = ['1000', true, true]; // IP_RATE_LIMIT of the tests
  for (const path of ['/health', '/health/live', '/health/ready', '/version', '/v1/kit/public']) {
    const res = await stack.request('GET', path);
    t.is(res.status, 200, path);
    t.deepEqual(rateHeaders(res), ipWindow, path);
  }
  const scrape = await stack.request('GET', '/metrics');
  t.deepEqual([scrape.status, ...rateHeaders(scrape)], [200, ...ipWindow]);

  // No route: no credential was checked, even one sent (KEY is a SCALE partner, limit 200), so the per-IP window.
  for (const headers of [{}, KEY]) {
    const unknown = await stack.request('GET', '/nope', { headers });
    t.deepEqual([unknown.status, unknown.body.error.type, unknown.body.error.instance, ...rateHeaders(unknown)], [404, 'https://errors.test/NOT_FOUND', '/nope', ...ipWindow]);
    t.is(unknown.body.error.requestId, unknown.headers.get('x-request-id'));
  }
  const wrongMethod = await stack.request('DELETE', '/v1/kit/ok');
  t.deepEqual([wrongMethod.status, wrongMethod.body.error.type, wrongMethod.headers.get('allow'), ...rateHeaders(wrongMethod)], [405, 'https://errors.test/METHOD_NOT_ALLOWED', 'GET', ...ipWindow]);
  const tooLarge = await stack.request('POST', '/v1/kit/things', { headers: KEY, body: { name: 'x'.repeat(3000) } }); // BODY_LIMIT 2kb
  t.deepEqual([tooLarge.status, tooLarge.body.error.type, ...rateHeaders(tooLarge)], [413, 'https://errors.test/PAYLOAD_TOO_LARGE', ...ipWindow]);
});

test('probes share the per-IP window of the public routes: past it /health/live is 429 like /version, and the next second answers again', async (t) => {
  // A stopped clock: every request falls in one window, however slow the machine.
  const clock = new ManualClock('2026-11-27T12:00:00.100Z');
  const limited = await startStack({ clock, nodes: [{ services: ['api-gateway'] }], env: { IP_RATE_LIMIT: '3' } });
  t.teardown(() => limited.stop());
  const reset = String(Math.floor(clock.now().getTime() / 1000) + 1);
  const answers = await Promise.all(['/health/live', '/health', '/health/live', '/health/live', '/health', '/version'].map((path) => limited.request('GET', path)));
  t.deepEqual(answers.map((r) => r.status).sort(), [200, 200, 200, 429, 429, 429]);
  t.deepEqual(answers.map((r) => r.headers.get('x-ratelimit-remaining')).sort(), ['0', '0', '0', '0', '1', '2']);
  for (const res of answers) t.deepEqual([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-reset')], ['3', reset]);
  const refused = answers.find((r) => r.status === 429)!;
  t.is(refused.headers.get('retry-after'), '1');
  t.deepEqual(refused.body.error, {
    type: 'https://errors.test/RATE_LIMIT_EXCEEDED', title: 'Too Many Requests', status: 429, detail: 'Limite de requisições por segundo excedido.',
    instance: refused.body.error.instance, requestId: refused.headers.get('x-request-id'), timestamp: refused.body.error.timestamp,
  });
  t.true(['/health/live', '/health', '/version'].includes(refused.body.error.instance));
  // A refusal with no route counts there too.
  const unknown = await limited.request('GET', '/nope');
  t.deepEqual([unknown.status, unknown.body.error.type, unknown.headers.get('x-ratelimit-remaining')], [429, 'https://errors.test/RATE_LIMIT_EXCEEDED', '0']);

  // A load balancer probing once a second is always answered.
  for (let i = 0; i < 3; i++) {
    clock.advance(1000);
    const live = await limited.request('GET', '/health/live');
    t.deepEqual([live.status, live.body.data, live.headers.get('x-ratelimit-remaining')], [200, { status: 'ok' }, '2']);
  }
});

test.serial('an Idempotency-Key replays the original status and body without reprocessing', async (t) => {
  const headers = { ...KEY, 'idempotency-key': 'idem-create-1' };
  const first = await stack.request('POST', '/v1/kit/things', { headers, body: { name: 'abc' } });
  const before = counters.create;
  const second = await stack.request('POST', '/v1/kit/things', { headers, body: { name: 'abc' } });
  t.is(second.status, 201);
  t.deepEqual(second.body, first.body);
  t.is(counters.create, before);
  t.is(second.headers.get('idempotent-replayed'), 'true');
  // API.md, Errors > Envelope: requestId equals X-Request-Id, so the identical body brings its header.
  t.is(second.headers.get('x-request-id'), first.body.meta.requestId);
});

test.serial('an Idempotency-Key replays a deterministic 422 refusal without running the action again', async (t) => {
  const headers = { ...KEY, 'idempotency-key': 'idem-refuse-1' };
  const first = await stack.request('POST', '/v1/kit/refuse', { headers, body: { a: 1 } });
  const runs = counters.refuse;
  const second = await stack.request('POST', '/v1/kit/refuse', { headers, body: { a: 1 } });
  t.is(second.status, 422);
  t.deepEqual(second.body, first.body);
  t.is(counters.refuse, runs);
  t.is(second.headers.get('x-request-id'), first.body.error.requestId);
});

test('an Idempotency-Key reused with another body answers 422 IDEMPOTENCIA_CORPO_DIVERGENTE', async (t) => {
  const headers = { ...KEY, 'idempotency-key': 'idem-create-2' };
  await stack.request('POST', '/v1/kit/things', { headers, body: { name: 'abc' } });
  const other = await stack.request('POST', '/v1/kit/things', { headers, body: { name: 'xyz' } });
  t.is(other.status, 422);
  t.is(other.body.error.type, 'https://errors.test/IDEMPOTENCIA_CORPO_DIVERGENTE');
});

test.serial('two concurrent requests with one Idempotency-Key execute once', async (t) => {
  const headers = { ...KEY, 'idempotency-key': 'idem-slow-1' };
  const before = counters.slow ?? 0;
  const [a, b] = await Promise.all([
    stack.request('POST', '/v1/kit/slow', { headers, body: {} }),
    stack.request('POST', '/v1/kit/slow', { headers, body: {} }),
  ]);
  t.is(counters.slow, before + 1);
  t.deepEqual([a.status, b.status].sort(), [201, 201]);
  t.deepEqual(a.body, b.body);
});

test.serial('a non-deterministic failure frees the Idempotency-Key so a retry executes', async (t) => {
  const headers = { ...KEY, 'idempotency-key': 'idem-flaky-1' };
  const before = counters.flaky ?? 0;
  t.is((await stack.request('POST', '/v1/kit/flaky', { headers, body: {} })).status, 503);
  t.is((await stack.request('POST', '/v1/kit/flaky', { headers, body: {} })).status, 503);
  t.is(counters.flaky, before + 2);
});

test('every log line written while serving a request names its request id', async (t) => {
  const logs = captureLogs();
  const logged = await startStack({ nodes: [{ services: ['api-gateway'], extra: [FakeAuthService, createTestKit()], logDestination: logs.stream, env: { LOG_LEVEL: 'info' } }] });
  t.teardown(() => logged.stop());
  const before = logs.lines().length;
  await logged.request('GET', '/v1/kit/crash', { headers: { ...KEY, 'x-request-id': 'log-trace-000001' } });
  const lines = logs.lines().slice(before);
  t.true(lines.length >= 2);
  t.true(lines.some((l) => l.msg === 'request failed'));
  for (const line of lines) t.is(line.requestId, 'log-trace-000001', JSON.stringify(line));
  t.notRegex(logs.text(), /"x-api-key":"test-caller/);
  // The crash message carries a connection string: its password never reaches the log.
  t.notRegex(logs.text(), /u:p@h/);
  t.regex(logs.text(), /postgres:\/\/u:\[redacted\]@h/);
});

test('a 5xx our code chose (DomainError) is a warning without a stack; an unexpected error is an error with one', async (t) => {
  const logs = captureLogs();
  const logged = await startStack({ nodes: [{ services: ['api-gateway'], extra: [FakeAuthService, createTestKit()], logDestination: logs.stream, env: { LOG_LEVEL: 'info' } }] });
  t.teardown(() => logged.stop());
  const res = await logged.request('GET', '/v1/kit/unavailable', { headers: { ...KEY, 'x-request-id': 'log-unavail-0001' } });
  t.is(res.status, 503, res.text);
  const mine = logs.lines().filter((l) => l.requestId === 'log-unavail-0001' && l.status === 503);
  t.like(mine, [{ level: 40, msg: 'request refused: dependency unavailable', status: 503, type: 'SERVICE_UNAVAILABLE', detail: 'Provedor de consulta indisponível.' }]);
  t.false('err' in mine[0]!, 'no stack for a deliberate refusal');
  await logged.request('GET', '/v1/kit/crash', { headers: { ...KEY, 'x-request-id': 'log-crash-00001' } });
  const crash = logs.lines().filter((l) => l.requestId === 'log-crash-00001' && l.msg === 'request failed');
  t.is(crash.length, 1);
  t.is(crash[0]!.level, 50);
  t.regex(crash[0]!.err.stack, /boom with secret/);
});

test.serial('a route marked idempotency: false runs again and stores nothing for its Idempotency-Key', async (t) => {
  const headers = { ...KEY, 'idempotency-key': 'idem-secret-1' };
  const first = await stack.request('POST', '/v1/kit/secret', { headers, body: {} });
  const second = await stack.request('POST', '/v1/kit/secret', { headers, body: {} });
  t.is(first.status, 201);
  t.not(first.body.data.secret, second.body.data.secret);
  const stored = await stack.knex('gateway.idempotency_keys').where({ key: 'idem-secret-1' });
  t.is(stored.length, 0);
});

test('a body that is not JSON (text, a form, no content type) answers 415 UNSUPPORTED_MEDIA_TYPE naming what was sent', async (t) => {
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
    const headers: Record<string, string> = { ...KEY, ...(contentType ? { 'content-type': contentType } : {}) };
    const res = await stack.request('POST', '/v1/kit/things', { headers, rawBody: 'name=abc' });
    t.is(res.status, 415, `${contentType}: ${res.text}`);
    t.deepEqual(res.body, {
      error: {
        type: 'https://errors.test/UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported Media Type', status: 415, detail: 'Envie o corpo como application/json.',
        details: { contentType: contentType ?? (res.body.error.details.contentType as string | null) }, instance: '/v1/kit/things',
        requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
      },
    });
  }
  // JSON under a +json type, with a charset, is JSON.
  const ok = await stack.request('POST', '/v1/kit/things', { headers: { ...KEY, 'content-type': 'application/vnd.api+json; charset=utf-8' }, rawBody: '{"name":"abc"}' });
  t.is(ok.status, 201, ok.text);
});
