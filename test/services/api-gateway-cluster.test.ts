import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startStack, type Stack } from '../support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../support/fake-auth.js';
import { createTestKit } from '../support/testkit.service.js';

let stack: Stack;

// Two gateway nodes and a worker node talking over the Redis transporter, sharing Redis counters.
test.before(async () => {
  stack = await startStack({
    redis: true,
    nodes: [
      { services: ['api-gateway'] },
      { services: ['api-gateway'] },
      { services: [], extra: [FakeAuthService, createTestKit()] },
    ],
  });
});
test.after.always(() => stack?.stop());

async function startOfSecond(): Promise<void> {
  const ms = Date.now() % 1000;
  if (ms > 300) await new Promise((r) => setTimeout(r, 1000 - ms + 5));
}

test.serial('the per-partner limit is shared by two gateway nodes: the 6th request of a Dev partner in one second is 429', async (t) => {
  const headers = { 'x-api-key': fakeCallerKey({ partnerId: 'p-dev-shared', plan: 'DEV' }) };
  await startOfSecond();
  const results = await Promise.all([0, 1, 0, 1, 0, 1, 0].map((node) => stack.request('GET', '/v1/kit/ok', { headers, node })));
  const statuses = results.map((r) => r.status);
  t.is(statuses.filter((s) => s === 200).length, 5, `statuses: ${statuses}`);
  t.is(statuses.filter((s) => s === 429).length, 2);
  const refused = results.find((r) => r.status === 429)!;
  t.is(refused.headers.get('retry-after'), '1');
  t.is(refused.headers.get('x-ratelimit-limit'), '5');
  t.is(refused.headers.get('x-ratelimit-remaining'), '0');
  t.is(refused.body.error.type, 'https://errors.test/RATE_LIMIT_EXCEEDED');
  t.is(refused.body.error.status, 429);
  t.is(refused.body.error.title, 'Too Many Requests');
});

test.serial('partners do not share a window: another partner is not limited by the first', async (t) => {
  await startOfSecond();
  const a = { 'x-api-key': fakeCallerKey({ partnerId: 'p-a', plan: 'DEV' }) };
  const b = { 'x-api-key': fakeCallerKey({ partnerId: 'p-b', plan: 'DEV' }) };
  await Promise.all([0, 1, 2, 3, 4, 5].map(() => stack.request('GET', '/v1/kit/ok', { headers: a })));
  const other = await stack.request('GET', '/v1/kit/ok', { headers: b, node: 1 });
  t.is(other.status, 200);
  t.is(other.headers.get('x-ratelimit-remaining'), '4');
});

test.serial('unauthenticated routes have their own per-IP limit', async (t) => {
  const limited = await startStack({ nodes: [{ services: ['api-gateway'] }], env: { IP_RATE_LIMIT: '3' } });
  t.teardown(() => limited.stop());
  await startOfSecond();
  const statuses = (await Promise.all([1, 2, 3, 4].map(() => limited.request('GET', '/version')))).map((r) => r.status);
  t.deepEqual(statuses.sort(), [200, 200, 200, 429]);
});

test('a request routed through one gateway to a service on another node keeps its request id', async (t) => {
  const res = await stack.request('GET', '/v1/kit/caller', { headers: { 'x-api-key': fakeCallerKey({ partnerId: 'p-rid', plan: 'SCALE' }), 'x-request-id': 'trace-across-nodes-1' }, node: 1 });
  t.is(res.status, 200);
  t.is(res.body.data.requestId, 'trace-across-nodes-1');
  t.is(res.body.meta.requestId, 'trace-across-nodes-1');
});

test('/health reports database, Redis and the broker nodes', async (t) => {
  const res = await stack.request('GET', '/health');
  t.is(res.status, 200);
  t.is(res.body.data.checks.redis.status, 'up');
  t.is(res.body.data.checks.broker.nodes.length, 3);
});

test('/api-docs-json is valid OpenAPI 3.1 and documents every published route with both security schemes', async (t) => {
  const res = await stack.request('GET', '/api-docs-json');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const doc = res.body;
  t.is(doc.data, undefined, 'the document itself, not the { data, meta } envelope: tools read it as is');
  t.is(doc.openapi, '3.1.0');
  t.is(doc.info.version, '2.1.0');
  const validation = await new Validator().validate(doc);
  t.true(validation.valid, JSON.stringify(validation).slice(0, 3000));
  t.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'bearer', 'mfaToken', 'webhookSignature']);
  t.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'x-api-key', description: doc.components.securitySchemes.apiKey.description });

  const api: any = stack.nodes[0]!.getLocalService('api');
  const published = (api.aliases as any[]).filter((a) => a.route?.path === '/v1');
  t.true(published.length >= 10);
  for (const alias of published) {
    const path = alias.fullPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    t.truthy(doc.paths[path]?.[alias.method.toLowerCase()], `${alias.method} ${path} missing from OpenAPI`);
  }
  for (const p of ['/health', '/health/live', '/version', '/api-docs-json']) t.truthy(doc.paths[p]?.get, p);
  const create = doc.paths['/v1/kit/things'].post;
  t.deepEqual(create.requestBody.content['application/json'].schema.required, ['name']);
  t.false(create.requestBody.content['application/json'].schema.additionalProperties);
  t.deepEqual(create.security, [{ apiKey: [] }, { bearer: [] }]);
  t.deepEqual(doc.paths['/v1/kit/public'].get.security, []);
  t.truthy(create.responses['201']);
});
