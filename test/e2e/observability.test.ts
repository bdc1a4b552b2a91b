import test from 'ava';
import { connect } from 'node:net';
import { startStack, captureLogs, type Stack } from '../support/stack.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1 } from '../support/e2e.js';
import { aValidNfseBody } from '../support/nfse-factories.js';
import { parseExposition, samples, valueOf } from '../support/prometheus.js';
import { ALL_SERVICES } from '../../services/index.js';
import { STAGES } from '../../services/emission/stage-timer.js';

/**
 * Issue 21 items 9 and 10 over HTTP, every service real (simulator over mTLS): the access log
 * (one info line per request, 4xx included, no warning on a 201), the fiscal outcome line, and the
 * emission's series on GET /metrics, read back with a strict exposition-format reader.
 */
const logs = captureLogs();
let stack: Stack;
let headers: Record<string, string>;
let partnerId: string;
let issuerId: string;
let owner: { email: string; password: string };

test.before(async () => {
  stack = await startStack({ nodes: [{ services: [...ALL_SERVICES], logDestination: logs.stream, env: { LOG_LEVEL: 'info' } }] });
  const who = await integratorWithA1(stack);
  ({ headers, issuerId } = who);
  partnerId = who.partner.partnerId;
  owner = { email: who.partner.ownerEmail, password: who.partner.ownerPassword };
});
test.after.always(async () => {
  await stack?.stop();
});

const linesOf = (requestId: string) => logs.lines().filter((l) => l.requestId === requestId);
const accessLines = (requestId: string) => linesOf(requestId).filter((l) => l.msg === 'request');

/** The access line is written on the response's 'finish', which may come a tick after fetch resolved. */
async function settled(requestId: string): Promise<void> {
  for (let i = 0; i < 250 && accessLines(requestId).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
}

test.serial('a 201 emission logs exactly one access line with its fields, one fiscal outcome line, and no warning', async (t) => {
  const requestId = 'obs-emit-0000001';
  const res = await stack.request('POST', '/v1/nfe', { headers: { ...headers, 'x-request-id': requestId }, body: aValidNfeBody() });
  t.is(res.status, 201, res.text);
  await settled(requestId);
  const access = accessLines(requestId);
  t.is(access.length, 1, JSON.stringify(linesOf(requestId)));
  const line = access[0]!;
  t.like(line, { level: 30, method: 'POST', route: '/v1/nfe', status: 201, partnerId, issuerId, requestId });
  t.is(typeof line.durationMs, 'number');
  t.true(line.durationMs > 0);
  t.false('code' in line, 'no error code on a success');

  const outcome = linesOf(requestId).filter((l) => l.msg === 'fiscal outcome');
  t.is(outcome.length, 1);
  t.like(outcome[0], { level: 30, model: '55', key: res.body.data.accessKey, cStat: 100, protocol: res.body.data.protocol, status: 'AUTHORIZED', via: 'authorization', result: 'authorized' });
  t.regex(String(outcome[0]!.protocol), /^\d{15}$/);

  t.deepEqual(linesOf(requestId).filter((l) => l.level >= 40), [], 'no warning or error for a 201');
  // Secrets never reach a log line: the API key travels in a header, which is never logged.
  t.false(logs.text().includes(headers['x-api-key']!));
});

test.serial('an NFS-e emission logs its access line and one fiscal outcome line with the chaveAcesso and model NFSe', async (t) => {
  // Its own partner: the other tests emit without issuerId, which needs a partner with one issuer.
  const other = await integratorWithA1(stack, { crt: 1, inscricaoMunicipal: '12345678', email: 'fiscal@prestador.com.br' });
  const prestador = other.issuerId;
  const requestId = 'obs-nfse-0000001';
  const res = await stack.request('POST', '/v1/nfse', { headers: { ...other.headers, 'x-request-id': requestId }, body: aValidNfseBody({ issuerId: prestador }) });
  t.is(res.status, 201, res.text);
  await settled(requestId);
  t.like(accessLines(requestId), [{ method: 'POST', route: '/v1/nfse', status: 201, partnerId: other.partner.partnerId, issuerId: prestador, requestId }]);
  const outcome = linesOf(requestId).filter((l) => l.msg === 'fiscal outcome');
  t.is(outcome.length, 1);
  t.like(outcome[0], {
    level: 30, model: 'NFSe', key: res.body.data.chaveAcesso, idDps: res.body.data.idDps, numeroNfse: res.body.data.numero,
    status: 'AUTHORIZED', via: 'submission', result: 'authorized', issuerId: prestador,
  });
  t.deepEqual(linesOf(requestId).filter((l) => l.level >= 40), [], 'no warning or error for a 201');
});

test.serial('a 201 that creates nothing with a URL of its own (a login) logs its access line and no warning either', async (t) => {
  const requestId = 'obs-login-0000001';
  const res = await stack.request('POST', '/v1/auth/login', { headers: { 'x-request-id': requestId }, body: owner });
  t.is(res.status, 201, res.text);
  t.is(res.headers.get('location'), null);
  await settled(requestId);
  t.like(accessLines(requestId), [{ level: 30, method: 'POST', route: '/v1/auth/login', status: 201 }]);
  t.deepEqual(linesOf(requestId).filter((l) => l.level >= 40), []);
  // The password travels in the body, which is never logged.
  t.false(logs.text().includes(owner.password));
});

test.serial('a line a service writes while serving the request names its request id too (a refused login)', async (t) => {
  const requestId = 'obs-refused-login1';
  const res = await stack.request('POST', '/v1/auth/login', { headers: { 'x-request-id': requestId }, body: { email: 'nobody@example.com', password: 'not-the-password' } });
  t.is(res.status, 401, res.text);
  await settled(requestId);
  // The auth service's logger comes from the call's context (services/shared/request-log.ts).
  t.like(linesOf(requestId).filter((l) => l.mod === 'v1.auth'), [{ level: 30, msg: 'login refused: bad credentials', email: 'no***@example.com' }]);
  t.is(accessLines(requestId).length, 1);
});

test.serial('a 400 logs exactly one access line with the error code, the partner and the issuer', async (t) => {
  const requestId = 'obs-refused-00001';
  const res = await stack.request('POST', '/v1/nfe', { headers: { ...headers, 'x-request-id': requestId }, body: { issuerId, unknownField: 1 } });
  t.is(res.status, 400, res.text);
  t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  await settled(requestId);
  const access = accessLines(requestId);
  t.is(access.length, 1);
  const { time: _time, pid: _pid, hostname: _host, durationMs, ...fields } = access[0]!;
  t.true(typeof durationMs === 'number' && durationMs > 0);
  t.deepEqual(fields, {
    level: 30, nodeID: stack.nodes[0]!.nodeID, ns: stack.config.namespace, mod: 'api', svc: 'api', requestId,
    method: 'POST', route: '/v1/nfe', status: 400, partnerId, issuerId, code: 'VALIDATION_ERROR', msg: 'request',
  });
});

test.serial('an unknown route and a request without credentials each log one line under a bounded route label', async (t) => {
  const unknown = await stack.request('GET', '/v1/nothing-here/123', { headers: { 'x-request-id': 'obs-unknown-00001' } });
  t.is(unknown.status, 404);
  const anonymous = await stack.request('GET', '/v1/nfe', { headers: { 'x-request-id': 'obs-anon-0000001' } });
  t.is(anonymous.status, 401);
  await settled('obs-unknown-00001');
  await settled('obs-anon-0000001');
  t.like(accessLines('obs-unknown-00001'), [{ method: 'GET', route: 'unmatched', status: 404, code: 'NOT_FOUND' }]);
  t.is(accessLines('obs-unknown-00001').length, 1);
  t.like(accessLines('obs-anon-0000001'), [{ method: 'GET', route: '/v1/nfe', status: 401, code: 'UNAUTHORIZED' }]);
  t.is(accessLines('obs-anon-0000001').length, 1);
  t.false('partnerId' in accessLines('obs-anon-0000001')[0]!);
});

test.serial('a request Node cannot parse (headers too large) is answered from the socket and still logs its one access line', async (t) => {
  const { port } = new URL(stack.url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /v1/nfe HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    let out = '';
    socket.on('data', (d) => { out += d.toString('utf8'); });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
  t.regex(text, /^HTTP\/1\.1 431 /);
  const requestId = /X-Request-Id: (\S+)/.exec(text)![1]!;
  await settled(requestId);
  t.deepEqual(accessLines(requestId).map(({ method, route, status, code }) => ({ method, route, status, code })), [
    { method: 'GET', route: 'unmatched', status: 431, code: 'CABECALHOS_GRANDES_DEMAIS' },
  ]);
});

test.serial('GET /metrics shows the emission: request counter and latency by route and status, stages, authority cStat and round trip per UF, outcome, lock wait, gauges', async (t) => {
  const node = stack.nodes[0]!.nodeID;
  const route = { method: 'POST', route: '/v1/nfe', node };
  const before = parseExposition((await stack.request('GET', '/metrics')).text);
  const emittedBefore = samples(before, 'fiscal_http_requests_total', { ...route, status: '201' })[0]?.value ?? 0;
  const emitted = await stack.request('POST', '/v1/nfe', { headers: { ...headers, 'x-request-id': 'obs-scraped-00001' }, body: aValidNfeBody() });
  t.is(emitted.status, 201, emitted.text);
  await settled('obs-scraped-00001');

  const res = await stack.request('GET', '/metrics');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const m = parseExposition(res.text);
  t.is(m.types.get('fiscal_http_requests_total'), 'counter');
  t.is(m.types.get('fiscal_emission_stage_duration_seconds'), 'histogram');

  t.is(valueOf(m, 'fiscal_http_requests_total', { ...route, status: '201' }), emittedBefore + 1);
  t.is(valueOf(m, 'fiscal_http_requests_total', { ...route, status: '400' }), 1);
  t.is(valueOf(m, 'fiscal_http_request_duration_seconds_count', { ...route, status: '201' }), emittedBefore + 1);
  t.true(valueOf(m, 'fiscal_http_request_duration_seconds_sum', { ...route, status: '201' }) > 0);
  t.is(valueOf(m, 'fiscal_http_request_duration_seconds_bucket', { ...route, status: '201', le: '+Inf' }), emittedBefore + 1);

  // Every stage the emission passed through (approximate-tax only runs for issuers that enable it,
  // draft only for notes of DRAFT_MIN_ITEMS items or more: services/emission/draft-pool.ts).
  const notPassed = ['approximate-tax', 'draft'];
  for (const stage of STAGES.filter((s) => !notPassed.includes(s))) {
    t.true(valueOf(m, 'fiscal_emission_stage_duration_seconds_count', { stage, node }) >= 2, stage);
  }
  for (const stage of notPassed) t.deepEqual(samples(m, 'fiscal_emission_stage_duration_seconds_count', { stage }), [], stage);
  t.true(valueOf(m, 'fiscal_emission_number_lock_wait_seconds_count', { node }) >= 2);
  t.true(valueOf(m, 'fiscal_emission_outcomes_total', { model: '55', kind: 'authorized', cstat: '100', node }) >= 2);

  // The authority (the simulator for SP, model 55): a processed batch answers root cStat 104.
  t.true(valueOf(m, 'fiscal_authority_calls_total', { uf: 'SP', model: '55', outcome: 'answer', cstat: '104', node }) >= 2);
  t.true(valueOf(m, 'fiscal_authority_round_trip_seconds_count', { uf: 'SP', model: '55', node }) >= 2);
  t.is(valueOf(m, 'fiscal_authority_circuit_state', { authority: 'SP|55|2', node }), 0);

  // Read at scrape time from each service's own tables: the emission's outbox, the dispatcher's DLQ.
  t.true(valueOf(m, 'fiscal_outbox_oldest_pending_seconds', { schema: 'emission', node }) >= 0);
  t.true(valueOf(m, 'fiscal_outbox_pending', { schema: 'emission', node }) >= 0);
  t.is(valueOf(m, 'fiscal_webhook_dead_letters', { node }), 0);
  t.is(valueOf(m, 'fiscal_metrics_node_scrape_ok', { node }), 1);
});

test.serial('probes and the scrape carry X-RateLimit-* of the per-IP window, like /version (API.md, Limits)', async (t) => {
  for (const path of ['/health', '/health/live', '/health/ready', '/metrics', '/version']) {
    const res = await stack.request('GET', path);
    t.is(res.status, 200, path);
    t.regex(res.headers.get('x-ratelimit-limit') ?? '', /^\d+$/, path);
    t.regex(res.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/, path);
  }
});

test.serial('the OpenAPI document lists /health/ready and /metrics without authentication', async (t) => {
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  t.is(doc.paths['/health/ready'].get.operationId, 'api.ready');
  t.deepEqual(doc.paths['/health/ready'].get.security, []);
  t.is(doc.paths['/metrics'].get.operationId, 'api.metrics');
  t.truthy(doc.paths['/metrics'].get.responses['200'].content['text/plain']);
});
