import test from 'ava';
import { startStack } from '../support/stack.js';

test('a fresh stack answers /health with the success envelope', async (t) => {
  const stack = await startStack({ nodes: [{ services: ['api-gateway'] }] });
  t.teardown(() => stack.stop());
  const res = await stack.request('GET', '/health');
  t.is(res.status, 200);
  t.is(res.body.data.status, 'ok');
  t.is(res.headers.get('x-request-id'), res.body.meta.requestId);
});
