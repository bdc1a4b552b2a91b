import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { authStack } from './helpers.js';

test('the authentication routes are in a valid OpenAPI 3.1 document, with their security and success status', async (t) => {
  const stack = await authStack(t);
  const res = await stack.request('GET', '/api-docs-json');
  t.is(res.status, 200);
  const doc = res.body;
  const result = await new Validator().validate(doc);
  t.true(result.valid, JSON.stringify(result.errors)?.slice(0, 2000));
  const expected: [string, string, string][] = [
    ['post', '/v1/auth/login', '201'], ['post', '/v1/auth/refresh', '200'], ['post', '/v1/auth/logout', '200'],
    ['post', '/v1/auth/2fa/verify', '201'], ['post', '/v1/auth/2fa/setup', '200'], ['post', '/v1/auth/2fa/enable', '200'],
    ['post', '/v1/auth/register', '202'], ['post', '/v1/auth/register-partner', '201'], ['post', '/v1/auth/reset-password', '200'],
    ['post', '/v1/auth/forgot-password', '202'], ['post', '/v1/auth/change-password', '200'], ['post', '/v1/auth/invite/accept', '201'],
    ['post', '/v1/auth/api-keys/test/regenerate', '201'], ['post', '/v1/auth/api-keys/regenerate', '201'], ['get', '/v1/auth/me', '200'],
    ['get', '/v1/admin/access-requests', '200'], ['post', '/v1/admin/access-requests/{id}/approve', '201'],
    ['post', '/v1/admin/partners/{id}/owner-invite', '202'], ['post', '/v1/admin/partners/{id}/deactivate', '200'],
  ];
  for (const [method, path, status] of expected) {
    const op = doc.paths?.[path]?.[method];
    t.truthy(op, `${method.toUpperCase()} ${path} documented`);
    t.truthy(op?.responses?.[status], `${path} answers ${status}`);
  }
  t.deepEqual(doc.paths['/v1/auth/login'].post.security, []);
  t.true(doc.paths['/v1/auth/logout'].post.parameters.some((p: any) => p.name === 'all' && p.in === 'query'));
});
