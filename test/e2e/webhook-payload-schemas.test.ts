import test from 'ava';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { aValidNfseBody } from '../support/nfse-factories.js';
import { companyWithA1, integratorWithA1, SANDBOX_CSC, subscribedReceiver } from '../support/e2e.js';
import { createA1, createCa } from '../support/certificates.js';
import { waitFor } from '../support/webhooks.js';
import { aCompleteIssuer } from '../services/issuer/support.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE } from '../../lib/webhooks/events.js';

/**
 * The OpenAPI document's `webhooks` section against what a partner's endpoint really receives:
 * every event type the platform produces is delivered here, signed, and each body must match the
 * schema published for its type (closed schemas: an undocumented field fails).
 */
let stack: Stack;
let receiver: Receiver;
let headers: Record<string, string>;
const DAY = 86_400_000;

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '200' } });
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
  receiver = await subscribedReceiver(stack, headers);
  // Every type, the opt-in sefaz.status.changed included.
  const all = [...WEBHOOK_EVENT_TYPES];
  const res = await stack.request('PATCH', '/v1/webhooks/config', { headers, body: { events: all } });
  if (res.status !== 200) throw new Error(res.text);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

const call = <T = any>(action: string, params: Record<string, unknown> = {}) => stack.nodes[0]!.call<T, any>(action, params);

async function produceEveryEvent(): Promise<void> {
  const ok = (res: { status: number; text: string; body: any }, status = 201) => { if (res.status !== status) throw new Error(`${res.status} ${res.text}`); return res; };
  // invoice.authorized (NF-e), then invoice.canceled.
  const nfe = ok(await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() })).body.data;
  ok(await stack.request('POST', `/v1/nfe/${nfe.id}/cancelamento`, { headers, body: { justificativa: 'Cancelamento por erro na digitacao do pedido' } }), 200);
  // invoice.rejected: the simulator's on-demand rejection.
  ok(await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ informacoesComplementares: 'Pedido 12 SIMULAR_REJEICAO:778' }) }), 400);
  // invoice.contingency (NFC-e offline, asked for).
  ok(await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody({ contingencia: true, justificativaContingencia: 'Sem conexao com a internet na loja' }) }));
  // invoice.authorized (NFS-e) from a provider of the same partner.
  const provider = await companyWithA1(stack, headers, { crt: 1, inscricaoMunicipal: '12345678', email: 'fiscal@prestador.com.br' });
  ok(await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId: provider.issuerId }) }));
  // certificate.expiring: an issuer whose A1 ends in 20 days (the 30-day notice is due).
  const expiring = (await stack.request('POST', '/v1/companies', { headers, body: aCompleteIssuer() })).body.data;
  const a1 = createA1(createCa(), { cnpj: expiring.cnpj, notAfter: new Date(Date.now() + 20 * DAY) });
  ok(await stack.request('POST', `/v1/companies/${expiring.issuerId}/certificate`, { headers, body: { pfxBase64: a1.pfxBase64, password: a1.password } }));
  await call('v1.issuer.runCertificateExpiryCheck');
  // sefaz.status.changed: the monitor sees SP, then SP down.
  await call('v1.contingency-monitor.checkNow', { uf: 'SP', ambiente: 'homologacao' });
  const simulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  const fault = simulator.faults.add({ mode: 'down', uf: 'SP' });
  await call('v1.contingency-monitor.checkNow', { uf: 'SP', ambiente: 'homologacao' });
  simulator.faults.clear({ id: fault.id });
  // webhook.test
  ok(await stack.request('POST', '/v1/webhooks/test', { headers }), 200);
}

/** The served document's webhooks schema of each event type as a validator (null for a type it does not publish). */
async function webhookValidators(): Promise<(type: string) => ((body: unknown) => boolean) & { errors?: unknown } | null> {
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  const ajv = new (Ajv2020 as any)({ strict: false, allErrors: true });
  (addFormats as any)(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  return (type: string) => {
    const schema = doc.webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema;
    // Refs are #/components/…: resolve them inside the document registered above.
    return schema ? ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'))) : null;
  };
}

test('every event delivered to a partner matches the schema the OpenAPI document publishes for its type', async (t) => {
  const validatorOf = await webhookValidators();

  await produceEveryEvent();
  const expected = ['invoice.authorized', 'invoice.canceled', 'invoice.rejected', 'invoice.contingency', 'certificate.expiring', 'sefaz.status.changed', TEST_EVENT_TYPE];
  await waitFor(async () => {
    const types = new Set(receiver.hits.map((h) => (h.body as any)?.type));
    return expected.every((type) => types.has(type)) && receiver.hits.filter((h) => (h.body as any)?.type === 'invoice.authorized').length >= 2;
  }, 'every event type delivered', 30_000);

  for (const hit of receiver.hits) {
    const body = hit.body as { type: string };
    t.true(hit.verified, `${body.type}: signed with the partner's secret`);
    t.is(hit.headers['x-webhook-event'], body.type);
    const validate = validatorOf(body.type);
    if (!validate) { t.fail(`no webhooks entry for ${body.type}`); continue; }
    t.true(validate(body), `${body.type}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body)}`);
  }
  // Both invoice variants of invoice.authorized were seen (NF-e and NFS-e).
  const authorized = receiver.hits.filter((h) => (h.body as any).type === 'invoice.authorized').map((h) => (h.body as any).data.model).sort();
  t.deepEqual(authorized, ['55', 'NFSe']);
});

test('a payload with a field the document does not publish fails the check (the schemas are closed)', async (t) => {
  const validate = (await webhookValidators())('sefaz.status.changed')!;
  const event = { id: '0b7c4a52-8f0e-4b8e-9a55-2f1d8e6c3a10', type: 'sefaz.status.changed', timestamp: '2026-11-25T12:00:00.000Z', data: { uf: 'SP', status: 'down', cStat: 108, xMotivo: 'x', ambiente: 'homologacao', checkedAt: '2026-11-25T12:00:00.000Z' } };
  t.true(validate(event));
  t.false(validate({ ...event, data: { ...event.data, extra: 1 } }));
  t.false(validate({ ...event, type: 'invoice.authorized' }));
});
