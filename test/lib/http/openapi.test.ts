import test from 'ava';
import { buildOpenApi, ruleToJsonSchema, type RouteDoc } from '../../../lib/http/openapi.js';

const info = { version: '2.1.0', baseUrl: 'http://api.test', errorsBase: 'http://api.test/errors' };

test('buildOpenApi takes an example and a data type from the supplement when the action declares none, its own otherwise', (t) => {
  const routes: RouteDoc[] = [
    { method: 'POST', path: '/v1/things', action: 'v1.things.create', params: { $$strict: true, nome: { type: 'string' } }, openapi: { tags: ['coisas'] } },
    { method: 'POST', path: '/v1/others', action: 'v1.things.other', params: { nome: 'string' }, openapi: { requestExample: { nome: 'própria' }, response: { type: 'integer' } } },
  ];
  const doc: any = buildOpenApi(info, routes, {
    requestExamples: { 'v1.things.create': { nome: 'Ana' }, 'v1.things.other': { nome: 'suplemento' } },
    responses: { 'v1.things.create': { $ref: '#/components/schemas/Coisa' }, 'v1.things.other': { type: 'string' } },
    components: { Coisa: { type: 'object', properties: { id: { type: 'string' } } } },
  });
  const create = doc.paths['/v1/things'].post;
  t.deepEqual(create.requestBody.content['application/json'].example, { nome: 'Ana' });
  t.deepEqual(create.responses['200'].content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Coisa' });
  t.truthy(doc.components.schemas.Coisa);
  t.truthy(doc.components.schemas.ErrorEnvelope);
  const other = doc.paths['/v1/others'].post;
  t.deepEqual(other.requestBody.content['application/json'].example, { nome: 'própria' });
  t.deepEqual(other.responses['200'].content['application/json'].schema.properties.data, { type: 'integer' });
});

test('buildOpenApi documents a write without fields as an optional empty body, strict when its schema is', (t) => {
  const doc: any = buildOpenApi(info, [
    { method: 'POST', path: '/v1/logout', action: 'v1.auth.logout', params: { $$strict: true } },
    { method: 'POST', path: '/v1/ping', action: 'v1.auth.ping' },
  ]);
  const strict = doc.paths['/v1/logout'].post.requestBody;
  t.false(strict.required);
  t.is(strict.content['application/json'].schema.additionalProperties, false);
  t.deepEqual(strict.content['application/json'].example, {});
  t.is(doc.paths['/v1/ping'].post.requestBody.content['application/json'].schema.additionalProperties, undefined);
});

test('buildOpenApi lists each parameter once: an action\'s own Idempotency-Key wins over the default, whatever its case', (t) => {
  const doc: any = buildOpenApi(info, [{
    method: 'POST', path: '/v1/things/:id', action: 'v1.things.act', params: { id: 'string' },
    openapi: { headers: [{ name: 'idempotency-key', description: 'própria' }, { name: 'X-Extra', description: 'a' }, { name: 'X-Extra', description: 'b' }] },
  }]);
  const params = doc.paths['/v1/things/{id}'].post.parameters.map((p: any) => `${p.in}:${p.name}:${p.description ?? ''}`);
  t.deepEqual(params, ['path:id:', 'header:idempotency-key:própria', 'header:X-Extra:a']);
});

test('buildOpenApi describes every tag in use, a licence and the error pages', (t) => {
  const doc: any = buildOpenApi(info, [
    { method: 'GET', path: '/v1/nfe', action: 'v1.emission.listNfe', openapi: { tags: ['documentos'] } },
    { method: 'GET', path: '/v1/x', action: 'v1.x.get', openapi: { tags: ['novidade'] } },
  ], { paths: { '/health': { get: { operationId: 'api.health', tags: ['monitoramento'], responses: {} } } } });
  t.deepEqual(doc.tags.map((x: any) => x.name), ['documentos', 'monitoramento', 'novidade']);
  t.is(doc.tags[2].description, 'Operações de novidade.');
  t.truthy(doc.paths['/health']);
  t.is(doc.info.license.url, 'http://api.test/docs');
  t.true(doc.info.description.includes('http://api.test/errors/<CÓDIGO>'));
});

test('ruleToJsonSchema describes a pattern with the words its refusal uses; a rule\'s own description wins', (t) => {
  t.deepEqual(ruleToJsonSchema({ type: 'string', pattern: /^(?:\d{2}|\d{8})$/ }).schema, { type: 'string', pattern: '^(?:\\d{2}|\\d{8})$', description: 'Deve ter 2 ou 8 dígitos.' });
  t.is(ruleToJsonSchema({ type: 'string', pattern: /^\d{8}$/, description: 'NCM' }).schema.description, 'NCM');
});

test('buildOpenApi drops the Idempotency-Key of a route that ignores it, and keeps it with Idempotent-Replayed elsewhere', (t) => {
  const doc: any = buildOpenApi(info, [
    { method: 'POST', path: '/v1/secret', action: 'v1.things.reveal', idempotency: false, params: { $$strict: true } },
    { method: 'POST', path: '/v1/things/:id', action: 'v1.things.act', params: { id: 'string', nome: 'string' }, httpStatus: 201, openapi: { location: '/v1/things/{id}', errors: { 409: 'CONFLICT: já feito.' } } },
  ]);
  const secret = doc.paths['/v1/secret'].post;
  t.is(secret.parameters, undefined);
  t.is(secret.responses['200'].headers['Idempotent-Replayed'], undefined);
  t.is(secret.responses['409'], undefined);
  const act = doc.paths['/v1/things/{id}'].post;
  t.truthy(act.parameters.find((p: any) => p.name === 'Idempotency-Key'));
  t.truthy(act.responses['201'].headers['Idempotent-Replayed']);
  t.truthy(act.responses['201'].headers.Location);
  t.truthy(act.responses['404'] && act.responses['413'] && act.responses['415']);
  t.regex(act.responses['409'].description, /^CONFLICT: já feito\. Ou IDEMPOTENCIA_EM_ANDAMENTO/);
});
