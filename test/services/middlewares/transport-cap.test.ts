import test from 'ava';
import type { ServiceSchema } from 'moleculer';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../../support/fake-auth.js';

/**
 * Issue 23, defect 2: no packet above TRANSPORT_MAX_PACKET_BYTES goes on the Redis transporter.
 * The gateway and the service answering are on two nodes, so every call crosses it.
 */
const BigService: ServiceSchema = {
  name: 'big',
  version: 1,
  settings: { rest: '/' },
  actions: {
    reply: { rest: 'GET /big/reply', handler: () => ({ texto: 'x'.repeat(300_000) }) },
    small: { rest: 'GET /big/small', handler: () => ({ ok: true }) },
    echo: { rest: 'POST /big/echo', handler: (ctx: any) => ({ size: String(ctx.params.texto ?? '').length }) },
  },
};

let stack: Stack;
const headers = { 'x-api-key': fakeCallerKey({ partnerId: 'p-cap', rateLimit: 100_000 }) };

test.before(async () => {
  stack = await startStack({
    redis: true,
    env: { TRANSPORT_MAX_PACKET_BYTES: '200000' },
    nodes: [{ services: ['api-gateway'], extra: [FakeAuthService] }, { services: [], extra: [BigService] }],
  });
});
test.after.always(async () => {
  await stack?.stop();
});

test.serial('a reply above the cap is replaced by 502 RESPOSTA_GRANDE_DEMAIS at once, and the transporter keeps working', async (t) => {
  const started = Date.now();
  const res = await stack.request('GET', '/v1/big/reply', { headers });
  t.true(Date.now() - started < 10_000, 'answered, not left to the 90 s call timeout');
  t.is(res.status, 502, res.text.slice(0, 300));
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/RESPOSTA_GRANDE_DEMAIS', title: 'Bad Gateway', status: 502,
      detail: 'A resposta excede o tamanho máximo entre os serviços; restrinja a consulta (por exemplo, com paginação).',
      details: { limiteBytes: 200000 }, instance: '/v1/big/reply', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is((await stack.request('GET', '/v1/big/small', { headers })).status, 200);
});

test.serial('a request above the cap fails at its sender with 413 PAYLOAD_TOO_LARGE; a small one passes', async (t) => {
  const res = await stack.request('POST', '/v1/big/echo', { headers, body: { texto: 'y'.repeat(300_000) } });
  t.is(res.status, 413, res.text.slice(0, 300));
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/PAYLOAD_TOO_LARGE', title: 'Payload Too Large', status: 413, detail: 'Requisição excede o tamanho máximo entre os serviços.',
      details: { limiteBytes: 200000 }, instance: '/v1/big/echo', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  const ok = await stack.request('POST', '/v1/big/echo', { headers, body: { texto: 'y'.repeat(1000) } });
  t.is(ok.status, 200, ok.text);
  t.is(ok.body.data.size, 1000);
});
