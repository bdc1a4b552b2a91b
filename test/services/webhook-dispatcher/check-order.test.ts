import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { createPartnerWithKey, type PartnerWithKey } from '../../support/identity.js';

// Real auth service and real keys: the order under test is the gateway's (authentication and key
// kind) against the action's params validation, so nothing here is stubbed.
let stack: Stack;
let testPartner: PartnerWithKey;
let livePartner: PartnerWithKey;
test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'auth', 'webhook-dispatcher'] }], env: { WEBHOOK_POLL_MS: '0' } });
  testPartner = await createPartnerWithKey(stack, { keyKind: 'test', plan: 'SCALE' });
  livePartner = await createPartnerWithKey(stack, { keyKind: 'live', plan: 'SCALE' });
});
test.after.always(async () => stack?.stop());

const DEAD_ID = '6f1c1f1e-8f0a-4f7e-9b1e-2d3c4b5a6978';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Webhook writes with a body (or path) that fails validation, and the field validation names. */
const malformed: { method: string; path: string; body?: unknown; field: string }[] = [
  { method: 'PATCH', path: '/v1/webhooks/config', body: { webhookUrl: 5 }, field: 'webhookUrl' },
  { method: 'PATCH', path: '/v1/webhooks/config', body: { webhookUrl: 'https://example.com/h', secret: 'whsec_mine' }, field: 'secret' },
  { method: 'PATCH', path: '/v1/webhooks/config', body: { webhookUrl: 'https://example.com/h', events: ['invoice.correction'] }, field: 'events[0]' },
  { method: 'POST', path: '/v1/webhooks/secret/regenerate', body: { secret: 'whsec_mine' }, field: 'secret' },
  { method: 'POST', path: '/v1/webhooks/dlq/not-a-uuid/retry', field: 'deliveryId' },
  { method: 'POST', path: `/v1/webhooks/dlq/${DEAD_ID}/retry`, body: { force: true }, field: 'force' },
  { method: 'POST', path: '/v1/webhooks/dlq/retry-all', body: { all: true }, field: 'all' },
  { method: 'DELETE', path: '/v1/webhooks/dlq', body: { confirm: true }, field: 'confirm' },
];

function request(c: (typeof malformed)[number], apiKey: string) {
  return stack.request(c.method, c.path, { headers: { 'x-api-key': apiKey }, ...(c.body !== undefined ? { body: c.body } : {}) });
}

for (const c of malformed) {
  const label = `${c.method} ${c.path} ${JSON.stringify(c.body ?? {})}`;

  test(`an ek_test_ key gets 403 AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK before body validation: ${label}`, async (t) => {
    const res = await request(c, testPartner.apiKey);
    t.is(res.status, 403);
    t.deepEqual(res.body, {
      error: {
        type: 'https://errors.test/AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK', title: 'Forbidden', status: 403,
        detail: 'Chave ek_test_ não pode alterar configurações de webhook.',
        instance: c.path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
      },
    });
    t.is(await stack.knex('webhooks.configs').where({ partner_id: testPartner.partnerId }).first(), undefined);
  });

  test(`the same request with an ek_live_ key is refused by validation (400): ${label}`, async (t) => {
    const res = await request(c, livePartner.apiKey);
    t.is(res.status, 400);
    t.like(res.body.error, { type: 'https://errors.test/VALIDATION_ERROR', status: 400, instance: c.path });
    t.true(res.body.error.errors.some((e: { field: string }) => e.field === c.field), JSON.stringify(res.body.error.errors));
  });
}

test('a webhook write body that is not even JSON gets the 403 with an ek_test_ key and the 400 with an ek_live_ key', async (t) => {
  const send = (apiKey: string) => stack.request('PATCH', '/v1/webhooks/config', { headers: { 'x-api-key': apiKey, ...JSON_HEADERS }, rawBody: '{"webhookUrl":' });
  const refused = await send(testPartner.apiKey);
  t.deepEqual(refused.body, {
    error: {
      type: 'https://errors.test/AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK', title: 'Forbidden', status: 403,
      detail: 'Chave ek_test_ não pode alterar configurações de webhook.',
      instance: '/v1/webhooks/config', requestId: refused.headers.get('x-request-id'), timestamp: refused.body.error.timestamp,
    },
  });
  t.is(refused.status, 403);
  const invalid = await send(livePartner.apiKey);
  t.is(invalid.status, 400);
  t.deepEqual(invalid.body, {
    error: {
      type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: 'Corpo da requisição não é JSON válido.',
      instance: '/v1/webhooks/config', requestId: invalid.headers.get('x-request-id'), timestamp: invalid.body.error.timestamp,
    },
  });
});

test('an ek_test_ key still reads the webhook configuration and may send a test delivery request', async (t) => {
  const cfg = await stack.request('GET', '/v1/webhooks/config', { headers: { 'x-api-key': testPartner.apiKey } });
  t.deepEqual([cfg.status, cfg.body.data], [200, { webhookUrl: null, webhookSecret: null, events: [], revealedOnce: false }]);
  const send = await stack.request('POST', '/v1/webhooks/test', { headers: { 'x-api-key': testPartner.apiKey } });
  t.is(send.status, 422);
  t.is(send.body.error.type, 'https://errors.test/WEBHOOK_NAO_CONFIGURADO');
});
