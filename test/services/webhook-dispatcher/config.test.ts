import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService, fakeCallerKey } from '../../support/fake-auth.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { ConfigStore } from '../../../services/webhooks/config-store.js';

const live = (partnerId: string) => ({ 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'live', plan: 'SCALE' }) });
const testKey = (partnerId: string) => ({ 'x-api-key': fakeCallerKey({ partnerId, keyKind: 'test', plan: 'SCALE' }) });
const URL_OK = 'http://127.0.0.1:9/hook'; // never called here: config routes only

let stack: Stack;
let strict: Stack;
test.before(async () => {
  const nodes = [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }];
  [stack, strict] = await Promise.all([
    startStack({ nodes, env: { WEBHOOK_POLL_MS: '0' } }),
    startStack({ nodes, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOW_PRIVATE: 'false' } }),
  ]);
});
test.after.always(async () => {
  await Promise.all([stack?.stop(), strict?.stop()]);
});

function envelope(res: any, status: number, slug: string, detail: string, instance: string) {
  return {
    error: {
      type: `https://errors.test/${slug}`, title: res.body.error.title, status, detail, instance,
      requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  };
}

test('GET /webhooks/config of a partner without configuration answers nulls and revealedOnce false', async (t) => {
  const res = await stack.request('GET', '/v1/webhooks/config', { headers: live('p-empty') });
  t.is(res.status, 200);
  t.deepEqual(res.body.data, { webhookUrl: null, webhookSecret: null, events: [], revealedOnce: false });
});

test('PATCH /webhooks/config reveals the secret once on creation, masked on every later call and on GET', async (t) => {
  const first = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-reveal'), body: { webhookUrl: URL_OK, events: ['invoice.authorized'] } });
  t.is(first.status, 200);
  t.is(first.body.data.revealedOnce, true);
  t.regex(first.body.data.webhookSecret, /^whsec_[A-Za-z0-9_-]{43}$/);
  const full: string = first.body.data.webhookSecret;
  const masked = `whsec_${full.slice(6, 8)}...${full.slice(-2)}`;
  t.deepEqual(first.body.data, { webhookUrl: URL_OK, webhookSecret: full, events: ['invoice.authorized'], revealedOnce: true });

  const second = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-reveal'), body: { webhookUrl: 'http://127.0.0.1:10/other', events: [] } });
  t.deepEqual(second.body.data, { webhookUrl: 'http://127.0.0.1:10/other', webhookSecret: masked, events: [], revealedOnce: false });

  const got = await stack.request('GET', '/v1/webhooks/config', { headers: live('p-reveal') });
  t.deepEqual(got.body.data, { webhookUrl: 'http://127.0.0.1:10/other', webhookSecret: masked, events: [], revealedOnce: false });

  // The secret is stored sealed, never in clear.
  const row = await stack.knex('webhooks.configs').where({ partner_id: 'p-reveal' }).first();
  t.false(JSON.stringify(row).includes(full));
});

test('POST /webhooks/secret/regenerate answers only the new secret with revealedOnce true', async (t) => {
  await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-regen'), body: { webhookUrl: URL_OK } });
  const res = await stack.request('POST', '/v1/webhooks/secret/regenerate', { headers: live('p-regen') });
  t.is(res.status, 200);
  t.deepEqual(Object.keys(res.body.data).sort(), ['revealedOnce', 'webhookSecret']);
  t.is(res.body.data.revealedOnce, true);
  t.regex(res.body.data.webhookSecret, /^whsec_/);
  const got = await stack.request('GET', '/v1/webhooks/config', { headers: live('p-regen') });
  t.is(got.body.data.webhookSecret, `whsec_${res.body.data.webhookSecret.slice(6, 8)}...${res.body.data.webhookSecret.slice(-2)}`);
});

test('a partner that got a secret by regenerate first sees it masked when the URL is created', async (t) => {
  await stack.request('POST', '/v1/webhooks/secret/regenerate', { headers: live('p-secret-first') });
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-secret-first'), body: { webhookUrl: URL_OK } });
  t.is(res.body.data.revealedOnce, false);
  t.regex(res.body.data.webhookSecret, /^whsec_..\.\.\...$/);
});

test('PATCH /webhooks/config refuses a secret field as unknown (400 VALIDATION_ERROR)', async (t) => {
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-x'), body: { webhookUrl: URL_OK, secret: 'whsec_mine' } });
  t.is(res.status, 400);
  t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.deepEqual(res.body.error.details.camposDesconhecidos, [{ campo: 'secret', caminho: 'secret', objeto: '' }]);
});

for (const bad of ['invoice.correction', 'nfse.authorized']) {
  test(`PATCH /webhooks/config refuses events[] value ${bad} with 400`, async (t) => {
    const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-ev'), body: { webhookUrl: URL_OK, events: ['invoice.authorized', bad] } });
    t.is(res.status, 400);
    t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR');
    t.is(res.body.error.errors[0].field, 'events[1]');
    const row = await stack.knex('webhooks.configs').where({ partner_id: 'p-ev' }).first();
    t.is(row, undefined);
  });
}

test('PATCH /webhooks/config without webhookUrl for a partner that has none answers 400', async (t) => {
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-nourl'), body: { events: [] } });
  t.is(res.status, 400);
  t.deepEqual(res.body.error.errors, [{ field: 'webhookUrl', message: 'webhookUrl é obrigatório na primeira configuração.' }]);
  t.is(await stack.knex('webhooks.configs').where({ partner_id: 'p-nourl' }).first(), undefined);
});

test('two concurrent first PATCHes reveal the secret to exactly one of them', async (t) => {
  const results = await Promise.all([0, 1, 2, 3].map((i) => stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-race'), body: { webhookUrl: `http://127.0.0.1:${9000 + i}/hook` } })));
  t.deepEqual(results.map((r) => r.status), [200, 200, 200, 200]);
  const revealed = results.filter((r) => r.body.data.revealedOnce);
  t.is(revealed.length, 1);
  const full: string = revealed[0]!.body.data.webhookSecret;
  for (const r of results.filter((x) => !x.body.data.revealedOnce)) t.is(r.body.data.webhookSecret, `whsec_${full.slice(6, 8)}...${full.slice(-2)}`);
});

const writes: [string, string, unknown?][] = [
  ['PATCH', '/v1/webhooks/config', { webhookUrl: URL_OK, events: [] }],
  ['POST', '/v1/webhooks/secret/regenerate'],
  ['POST', '/v1/webhooks/dlq/6f1c1f1e-8f0a-4f7e-9b1e-2d3c4b5a6978/retry'],
  ['POST', '/v1/webhooks/dlq/retry-all'],
  ['DELETE', '/v1/webhooks/dlq'],
];
for (const [method, path, body] of writes) {
  test(`ek_test_ key gets 403 AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK on ${method} ${path}`, async (t) => {
    const res = await stack.request(method, path, { headers: testKey('p-test'), ...(body ? { body } : {}) });
    t.is(res.status, 403);
    t.deepEqual(res.body, envelope(res, 403, 'AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK', 'Chave ek_test_ não pode alterar configurações de webhook.', path));
    t.is(res.body.error.title, 'Forbidden');
  });
}

test('ek_test_ key keeps reads open: GET config, logs and dlq', async (t) => {
  await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-test-reads'), body: { webhookUrl: URL_OK } });
  const cfg = await stack.request('GET', '/v1/webhooks/config', { headers: testKey('p-test-reads') });
  t.is(cfg.status, 200);
  t.is(cfg.body.data.webhookUrl, URL_OK);
  const logs = await stack.request('GET', '/v1/webhooks/logs', { headers: testKey('p-test-reads') });
  t.deepEqual([logs.status, logs.body.data], [200, []]);
  const dlq = await stack.request('GET', '/v1/webhooks/dlq', { headers: testKey('p-test-reads') });
  t.deepEqual([dlq.status, dlq.body.data], [200, { total: 0, items: [] }]);
});

test('logs and dlq refuse limit outside 1..100 and a page parameter', async (t) => {
  for (const q of ['limit=0', 'limit=101', 'limit=abc', 'page=2']) {
    const res = await stack.request('GET', `/v1/webhooks/dlq?${q}`, { headers: live('p-limit') });
    t.is(res.status, 400, q);
    t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR', q);
  }
  t.is((await stack.request('GET', '/v1/webhooks/logs?limit=100', { headers: live('p-limit') })).status, 200);
});

test('SSRF guard: a loopback or private target is refused with 422 when private targets are not allowed', async (t) => {
  for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://169.254.169.254/latest', 'http://10.0.0.1/', 'http://[::1]/']) {
    const res = await strict.request('PATCH', '/v1/webhooks/config', { headers: live('p-ssrf'), body: { webhookUrl: url } });
    t.is(res.status, 422, url);
    t.is(res.body.error.type, 'https://errors.test/WEBHOOK_URL_NAO_PERMITIDA', url);
    t.regex(res.body.error.detail, /não público/, url);
  }
  t.is(await strict.knex('webhooks.configs').where({ partner_id: 'p-ssrf' }).first(), undefined);
});

for (const host of ['127.0.0.1', 'localhost']) {
  test(`SSRF guard at delivery time: a URL that now points at ${host} is not connected to`, async (t) => {
    const receiver = await startReceiver();
    t.teardown(() => receiver.close());
    // As if the host was public when configured and its DNS now answers a loopback address.
    const url = receiver.url.replace('127.0.0.1', host);
    const partner = `p-rebind-${host}`;
    await new ConfigStore(strict.knex, 'webhooks', strict.config.encryptionKeys).patch(partner, { webhookUrl: url }, new Date());
    const res = await strict.request('POST', '/v1/webhooks/test', { headers: live(partner) });
    t.is(res.status, 200);
    t.like(res.body.data, { status: 'failed', lastStatusCode: null });
    t.regex(res.body.data.attempts[0].error, /^destino bloqueado: webhookUrl resolve para endereço não público/);
    t.is(receiver.hits.length, 0);
  });
}

test('SSRF guard: the same loopback target is allowed in development configuration', async (t) => {
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-dev'), body: { webhookUrl: 'http://127.0.0.1:8080/hook' } });
  t.is(res.status, 200);
});

test('PATCH /webhooks/config refuses a malformed URL and a non-http scheme with 400', async (t) => {
  for (const url of ['nota-url', 'ftp://example.com/x', 'https://user:pw@example.com/']) {
    const res = await stack.request('PATCH', '/v1/webhooks/config', { headers: live('p-url'), body: { webhookUrl: url } });
    t.is(res.status, 400, url);
    t.is(res.body.error.errors[0].field, 'webhookUrl', url);
  }
});

test('POST /webhooks/test without a configured URL answers 422 WEBHOOK_NAO_CONFIGURADO', async (t) => {
  const res = await stack.request('POST', '/v1/webhooks/test', { headers: live('p-none') });
  t.deepEqual(res.body, envelope(res, 422, 'WEBHOOK_NAO_CONFIGURADO', 'Configure webhookUrl antes de usar esta rota.', '/v1/webhooks/test'));
});

test('the webhook routes are in the OpenAPI document, which stays a valid OpenAPI 3.1 document', async (t) => {
  const res = await stack.request('GET', '/api-docs-json');
  const doc = res.body;
  t.true((await new Validator().validate(doc)).valid);
  const paths = Object.keys(doc.paths ?? {});
  for (const p of ['/v1/webhooks/config', '/v1/webhooks/secret/regenerate', '/v1/webhooks/test', '/v1/webhooks/logs', '/v1/webhooks/dlq', '/v1/webhooks/dlq/retry-all']) {
    t.true(paths.includes(p), p);
  }
  t.true(paths.some((p) => p.startsWith('/v1/webhooks/dlq/{deliveryId}') || p.startsWith('/v1/webhooks/dlq/:deliveryId')));
});

test('malformed webhook requests answer 400 envelopes, never 500', async (t) => {
  const cases: [string, string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }][] = [
    ['PATCH', '/v1/webhooks/config', { rawBody: '[1,2]', headers: { 'content-type': 'application/json' } }],
    ['PATCH', '/v1/webhooks/config', { rawBody: '"x"', headers: { 'content-type': 'application/json' } }],
    ['PATCH', '/v1/webhooks/config', { rawBody: '{"webhookUrl":', headers: { 'content-type': 'application/json' } }],
    ['PATCH', '/v1/webhooks/config', { body: { webhookUrl: 5 } }],
    ['PATCH', '/v1/webhooks/config', { body: { webhookUrl: URL_OK, events: 'invoice.authorized' } }],
    ['PATCH', '/v1/webhooks/config', { body: { webhookUrl: URL_OK, events: ['invoice.authorized', 'invoice.authorized'] } }],
    ['PATCH', '/v1/webhooks/config', { body: { webhookUrl: `https://example.com/${'a'.repeat(3000)}` } }],
    ['GET', '/v1/webhooks/logs?limit=1.5', {}],
    ['POST', '/v1/webhooks/dlq/not-a-uuid/retry', {}],
    ['POST', '/v1/webhooks/test', { body: { extra: true } }],
  ];
  for (const [method, path, opts] of cases) {
    const res = await stack.request(method, path, { headers: { ...live('p-bad'), ...(opts.headers ?? {}) }, ...(opts.body !== undefined ? { body: opts.body } : {}), ...(opts.rawBody ? { rawBody: opts.rawBody } : {}) });
    t.is(res.status, 400, `${method} ${path} ${opts.rawBody ?? JSON.stringify(opts.body ?? '').slice(0, 60)}`);
    t.is(res.body.error.status, 400);
    t.is(res.body.error.instance, path.split('?')[0]);
  }
});
