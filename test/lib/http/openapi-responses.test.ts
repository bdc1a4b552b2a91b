import test from 'ava';
import { operationResponses, type ResponseFacts } from '../../../lib/http/openapi-responses.js';

const json = { 'application/json': { schema: { type: 'object' } } };
const facts = (over: Partial<ResponseFacts> = {}): ResponseFacts => ({
  status: 200, content: json, authenticated: true, hasPathParams: false, takesBody: false, idempotencyKey: false, ...over,
});
const statuses = (r: Record<string, unknown>) => Object.keys(r).filter((s) => s !== 'default').map(Number).sort((a, b) => a - b);
const headers = (r: Record<string, any>, status: number | string) => Object.keys(r[status].headers ?? {});

test('operationResponses lists 404 with a path parameter, 413 and 415 with a JSON body, 401 and 403 when authenticated', (t) => {
  t.deepEqual(statuses(operationResponses(facts())), [200, 400, 401, 403, 422, 429, 503]);
  t.deepEqual(statuses(operationResponses(facts({ hasPathParams: true }))), [200, 400, 401, 403, 404, 422, 429, 503]);
  t.deepEqual(statuses(operationResponses(facts({ takesBody: true, authenticated: false }))), [200, 400, 413, 415, 422, 429, 503]);
  t.regex((operationResponses(facts({ takesBody: true })) as any)[415].description, /^UNSUPPORTED_MEDIA_TYPE/);
});

test('operationResponses adds the statuses only the action knows, its description winning over the generic one', (t) => {
  const r: any = operationResponses(facts({ authenticated: false, hasPathParams: true, errors: { 401: 'UNAUTHORIZED: senha errada.', 404: 'NOT_FOUND: CNPJ não cadastrado.', 409: 'CNPJ_CONFLICT: já cadastrado.' } }));
  t.deepEqual(statuses(r), [200, 400, 401, 404, 409, 422, 429, 503]);
  t.is(r[401].description, 'UNAUTHORIZED: senha errada.');
  t.is(r[404].description, 'NOT_FOUND: CNPJ não cadastrado.');
  t.deepEqual(r[409].content['application/json'].schema, { $ref: '#/components/schemas/ErrorEnvelope' });
});

test('operationResponses puts X-RateLimit-* and X-Request-Id on every error, and Retry-After of 1 s on the 429', (t) => {
  const r: any = operationResponses(facts({ hasPathParams: true, takesBody: true, errors: { 409: 'CONFLICT: x.' } }));
  for (const s of [400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 'default']) {
    t.true(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'].every((h) => headers(r, s).includes(h)), String(s));
    t.deepEqual(r[s].content['application/json'].schema, { $ref: '#/components/schemas/ErrorEnvelope' }, String(s));
  }
  t.deepEqual(r[429].headers['Retry-After'].schema, { type: 'integer', const: 1 });
  t.truthy(r[503].headers['Retry-After']);
});

test('operationResponses documents Idempotent-Replayed where a replay can answer, and the 409 of a key still in progress', (t) => {
  const r: any = operationResponses(facts({ status: 201, takesBody: true, idempotencyKey: 'refuse-busy' }));
  for (const s of [201, 400, 409, 422]) t.true(headers(r, s).includes('Idempotent-Replayed'), String(s));
  // Refused before the key is claimed, or never stored for replay.
  for (const s of [401, 403, 413, 415, 429, 503]) t.false(headers(r, s).includes('Idempotent-Replayed'), String(s));
  t.regex(r[409].description, /IDEMPOTENCIA_EM_ANDAMENTO/);
  const document: any = operationResponses(facts({ status: 201, idempotencyKey: 'document', errors: { 409: 'NUMERO_JA_UTILIZADO.' } }));
  t.is(document[409].description, 'NUMERO_JA_UTILIZADO.');
  t.false(headers(operationResponses(facts({ takesBody: true })), 200).includes('Idempotent-Replayed'));
  // Without a key (a public route, a secret reveal) nothing is in progress.
  t.false(statuses(operationResponses(facts({ takesBody: true }))).includes(409));
});

test('operationResponses names the created resource in Location on a 201, and Content-Disposition on XML, PDF and HTML downloads', (t) => {
  const created: any = operationResponses(facts({ status: 201, location: '/v1/nfe/{id}' }));
  t.regex(created[201].headers.Location.description, /\/v1\/nfe\/\{id\}/);
  t.is(headers(operationResponses(facts({ location: '/v1/nfe/{id}' })), 200).includes('Location'), false);
  const download = (contentType: string) => (operationResponses(facts({ contentType, content: { [contentType]: { schema: { type: 'string' } } } })) as any)[200].headers['Content-Disposition'];
  t.regex(download('application/xml').description, /^attachment/);
  t.regex(download('application/pdf').description, /^attachment/);
  t.regex(download('text/html').description, /^inline/);
  t.is(download('image/png'), undefined);
});
