import test from 'ava';
import { invoiceContext } from '../support/invoice-events.js';
import { startStack, type Stack } from '../support/stack.js';
import { issueSandboxA1 } from '../../services/sefaz/simulator/sandbox-ca.js';
import { aCompleteIssuer } from '../services/issuer/support.js';
import { aValidNfceBody, aValidNfeBody, anItem, closingPayments } from '../support/nfe-factories.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { verifyXmlSignature } from '../../lib/sign/verify.js';
import { integratorWithA1, SANDBOX_CSC, subscribedReceiver } from '../support/e2e.js';

/**
 * The whole product, every service real: a partner and its API key (auth), an issuer with an A1
 * from the sandbox CA (issuer), notes validated, numbered, built and signed (emission + lib),
 * transmitted over mutual TLS to the authority simulator (sefaz), and the outcome pushed to a
 * signed webhook (webhook-dispatcher).
 */
let stack: Stack;
let issuerId: string;
let receiver: Receiver;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '200' } });
  ({ headers, issuerId } = await integratorWithA1(stack, SANDBOX_CSC));
  receiver = await subscribedReceiver(stack, headers);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

test.serial('an NF-e is authorized by the authority, its nfeProc passes the official XSD and xmlsec1, and the webhook arrives signed', async (t) => {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(res.status, 201, res.text);
  const doc = res.body.data;
  t.is(doc.status, 'AUTHORIZED');
  t.regex(doc.accessKey, /^35\d{4}\d{14}55001\d{9}1\d{9}$/);
  t.is(doc.number, 1);
  t.is(doc.series, 1);
  t.is(doc.amount, '100.00');
  t.regex(doc.protocol, /^\d{15}$/);

  const xml = await stack.request('GET', `/v1/nfe/${doc.id}/xml`, { headers });
  t.is(xml.status, 200);
  t.regex(xml.headers.get('content-type') ?? '', /xml/);
  t.true(xml.text.startsWith('<?xml') || xml.text.startsWith('<nfeProc'));
  t.true(verifyXmlSignature(xml.text).valid);
  const independent = verifyDfe({ nfeProc: xml.text });
  t.true(independent.ok, independent.output);

  const hook = await waitFor(async () => receiver.hits.find((h) => h.body?.data?.invoiceId === doc.id), 'invoice.authorized webhook');
  t.true(hook.verified);
  t.is(hook.headers['x-webhook-event'], 'invoice.authorized');
  t.deepEqual(hook.body.data, { invoiceId: doc.id, model: '55', number: 1, series: 1, accessKey: doc.accessKey, status: 'AUTHORIZED', amount: '100.00', ...invoiceContext(doc) });
});

test.serial('an NFC-e is authorized with its QR code, and numbering is per model', async (t) => {
  const res = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'AUTHORIZED');
  t.is(res.body.data.number, 1);
  t.regex(res.body.data.accessKey, /^35\d{18}65/);
  const got = await stack.request('GET', `/v1/nfce/${res.body.data.id}`, { headers });
  t.regex(got.body.data.qrCode, /\?p=\d{44}\|2\|2\|1\|[0-9A-F]{40}$/i);
});

test.serial('a refusal before numbering leaves the sequence untouched: the next note takes the next number', async (t) => {
  const bad = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ items: [anItem({ cfop: '6102' }), anItem()], pagamentos: closingPayments([anItem(), anItem()]) }) });
  t.is(bad.status, 422);
  t.is(bad.body.error.type, 'https://errors.test/CFOP_IDDEST_DIVERGENTE');
  const unknown = await stack.request('POST', '/v1/nfe', { headers, body: { ...aValidNfeBody(), itens: [] } });
  t.is(unknown.status, 400);
  t.is(unknown.body.error.details.camposDesconhecidos[0].campo, 'itens');
  const ok = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.number, 2);
});

test.serial('a passthrough numero already used answers 409 NUMERO_JA_UTILIZADO without transmitting', async (t) => {
  const first = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 5000 }) });
  t.is(first.status, 201, first.text);
  t.is(first.body.data.number, 5000);
  const again = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 5000 }) });
  t.is(again.status, 409);
  t.is(again.body.error.type, 'https://errors.test/NUMERO_JA_UTILIZADO');
});

test.serial('an Idempotency-Key replays the authorized note without a second emission', async (t) => {
  const h = { ...headers, 'idempotency-key': 'e2e-idem-1' };
  const a = await stack.request('POST', '/v1/nfe', { headers: h, body: aValidNfeBody() });
  const b = await stack.request('POST', '/v1/nfe', { headers: h, body: aValidNfeBody() });
  t.is(a.status, 201);
  t.deepEqual(b.body, a.body);
  const list = await stack.request('GET', '/v1/nfe?limit=100', { headers });
  t.is(list.body.data.items.filter((d: any) => d.id === a.body.data.id).length, 1);
});

test.serial('an answer lost after the authority processed the note ends AUTHORIZED through reconciliation, with exactly one event', async (t) => {
  const sefaz: any = stack.nodes[0]!.getLocalService('v1.sefaz');
  sefaz.simulator.faults.add({ mode: 'drop-after-processing', service: 'NFeAutorizacao4', times: 1 });
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'TRANSMITTING');
  t.is(res.body.data.protocol, null);
  const id = res.body.data.id;

  const open = await stack.request('GET', '/v1/nfe?situacao=indeterminada', { headers });
  const listed = open.body.data.items.find((d: any) => d.accessKey === res.body.data.accessKey);
  t.truthy(listed);
  t.is(listed.situacao, 'indeterminada');
  t.is(listed.status, 'TRANSMITTING');
  t.truthy(listed.proximaVerificacaoEm);

  await stack.knex('emission.documents').where({ id }).update({ next_check_at: new Date(Date.now() - 1000) });
  await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  const done = await stack.request('GET', `/v1/nfe/${id}`, { headers });
  t.is(done.body.data.status, 'AUTHORIZED');
  t.regex(done.body.data.protocol, /^\d{15}$/);
  await waitFor(async () => receiver.hits.some((h) => h.body?.data?.invoiceId === id), 'invoice.authorized after reconciliation');
  await new Promise((r) => setTimeout(r, 500));
  t.is(receiver.hits.filter((h) => h.body?.data?.invoiceId === id).length, 1);
});

test.serial('a resend while the authority is still processing the first transmission (slow) answers 409 CONFLICT; the authority gets one submission', async (t) => {
  const sefaz: any = stack.nodes[0]!.getLocalService('v1.sefaz');
  const submitted: string[] = [];
  const authorize = sefaz.client.authorize;
  sefaz.client.authorize = (p: any) => { submitted.push(p.accessKey); return authorize.call(sefaz.client, p); };
  t.teardown(() => { sefaz.client.authorize = authorize; });
  sefaz.simulator.faults.add({ mode: 'slow', service: 'NFeAutorizacao4', delayMs: 3000, times: 1 });

  const first = stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 6000 }) });
  const doc = await waitFor(async () => {
    const row = await stack.knex('emission.documents').where({ issuer_id: issuerId, number: 6000 }).first('id', 'status', 'access_key');
    return row?.status === 'TRANSMITTING' && submitted.includes(row.access_key) ? row : undefined;
  }, 'first transmission in flight');

  const resend = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 6000 }) });
  t.is(resend.status, 409, resend.text);
  t.deepEqual(resend.body, {
    error: {
      type: 'https://errors.test/DOCUMENTO_EM_TRANSMISSAO', title: 'Conflict', status: 409,
      detail: 'Documento em transmissão para a autoridade fiscal; aguarde o resultado (consulte o documento ou aguarde o webhook) antes de reenviar.',
      details: { invoiceId: doc.id, status: 'TRANSMITTING', numero: 6000, serie: 1 },
      instance: '/v1/nfe', requestId: resend.headers.get('x-request-id'), timestamp: resend.body.error.timestamp,
    },
  });
  t.regex(resend.body.error.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

  const done = await first;
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { id: doc.id, status: 'AUTHORIZED', number: 6000 });
  t.deepEqual(submitted, [doc.access_key]);
  t.deepEqual(sefaz.simulator.faults.list(), []); // the slow answer was the first submission's
});

test.serial('an issuer without certificate: a rule-breaking note answers the rule, a valid one CERTIFICADO_AUSENTE, and neither takes a number', async (t) => {
  // Runs last: a second issuer makes issuerId required for this partner.
  const company = await stack.request('POST', '/v1/companies', { headers, body: aCompleteIssuer({ crt: 3 }) });
  t.is(company.status, 201, company.text);
  const second = company.body.data.issuerId;
  const rule = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ issuerId: second, items: [anItem({ cfop: '6102' }), anItem()], pagamentos: closingPayments([anItem(), anItem()]) }) });
  t.is(rule.status, 422, rule.text);
  t.is(rule.body.error.type, 'https://errors.test/CFOP_IDDEST_DIVERGENTE');
  const noCert = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ issuerId: second }) });
  t.is(noCert.status, 422, noCert.text);
  t.is(noCert.body.error.type, 'https://errors.test/CERTIFICADO_AUSENTE');
  t.is(noCert.body.error.detail, 'Emissor sem certificado A1 válido instalado.');

  const a1 = issueSandboxA1(stack.config.sefaz.simulatorDir, { cnpj: company.body.data.cnpj, password: 'senha-do-a1' });
  t.is((await stack.request('POST', `/v1/companies/${second}/certificate`, { headers, body: { pfxBase64: a1.pfxBase64, password: a1.password } })).status, 201);
  const ok = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ issuerId: second }) });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.number, 1);
});

test('with every service running, /api-docs-json is valid OpenAPI 3.1 and documents every published route', async (t) => {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  const result = await new Validator().validate(doc);
  t.true(result.valid, JSON.stringify(result).slice(0, 3000));
  const api: any = stack.nodes[0]!.getLocalService('api');
  const published = (api.aliases as any[]).filter((a) => a.route?.path === '/v1');
  t.true(published.length > 50, `only ${published.length} routes`);
  const missing = published
    .map((a) => `${a.method} ${a.fullPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
    .filter((key) => { const [m, p] = key.split(' '); return !doc.paths[p!]?.[m!.toLowerCase()]; });
  t.deepEqual(missing, []);
  for (const p of ['/v1/nfe', '/v1/nfce', '/v1/companies', '/v1/auth/login', '/v1/webhooks/config']) t.truthy(doc.paths[p], p);
});
