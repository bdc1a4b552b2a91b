import test from 'ava';
import { randomBytes } from 'node:crypto';
import type { ServiceBroker } from 'moleculer';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { createA1, createCa } from '../../support/certificates.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { encrypt as encryptSecret } from '../../../lib/crypto/aead.js';
import { ISSUER_ROW_DROP_ACTION } from '../../../services/issuer/row-cache.mixin.js';
import type { LeasedCache } from '../../../services/shared/leased-cache.js';
import { aCompleteIssuer, as, SUPERADMIN } from './support.js';

/**
 * The per-node cache of issuer rows (services/issuer/row-cache.mixin.ts) on two nodes over the
 * Redis transporter: node 0 runs the gateway and takes every write (its gateway prefers its local
 * issuer service), node 1 only reads, as the emission path does. For each kind of write, node 1
 * holds the row in cache before it and answers the new row as soon as the write has answered.
 */
const LEASE_MS = 1_500;
const oldKey = { id: 'old', key: randomBytes(32) };
const newKey = { id: 'new', key: randomBytes(32) };
const ca = createCa();
let stack: Stack;

test.before(async () => {
  stack = await startStack({
    redis: true,
    env: { CACHE_LEASE_MS: String(LEASE_MS), ENCRYPTION_KEYS: `new:${newKey.key.toString('base64')},old:${oldKey.key.toString('base64')}` },
    nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }, { services: ['issuer'] }],
  });
});
test.after.always(async () => {
  await stack?.stop();
  await closeAllRedis();
});

const reader = () => stack.nodes[1]!;
const cacheOf = (broker: ServiceBroker) => (broker.getLocalService('v1.issuer') as unknown as { issuerRows: { local: LeasedCache<unknown> } }).issuerRows.local;

/** forEmission on one node (its own issuer service), preflight reported rather than thrown. */
function forEmission(broker: ServiceBroker, partnerId: string, issuerId: string): Promise<any> {
  return broker.call('v1.issuer.forEmission', { partnerId, issuerId, model: '55', keyKind: 'live', preflight: 'report' }, { nodeID: broker.nodeID });
}

async function refusalOf(p: Promise<unknown>): Promise<{ type: string; code: number }> {
  try {
    await p;
  } catch (err: any) {
    return { type: err.type, code: err.code };
  }
  throw new Error('the call did not fail');
}

/** Reads on the node until its cache holds the row (a node keeps nothing for a lease after it joined). */
async function warm(broker: ServiceBroker, partnerId: string, issuerId: string): Promise<any> {
  const deadline = Date.now() + 4 * LEASE_MS;
  for (;;) {
    const answer = await forEmission(broker, partnerId, issuerId);
    if (cacheOf(broker).peek(issuerId)) return answer;
    if (Date.now() > deadline) throw new Error(`node ${broker.nodeID} never cached issuer ${issuerId}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function newIssuer(partner: string, withA1 = false): Promise<{ issuerId: string; cnpj: string }> {
  const res = await stack.request('POST', '/v1/companies', { headers: as(partner), body: aCompleteIssuer() });
  if (res.status !== 201) throw new Error(res.text);
  const issuer = res.body.data as { issuerId: string; cnpj: string };
  if (withA1) {
    const a1 = createA1(ca, { cnpj: issuer.cnpj });
    const cert = await stack.request('POST', `/v1/companies/${issuer.issuerId}/certificate`, { headers: as(partner), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
    if (cert.status !== 201) throw new Error(cert.text);
  }
  return issuer;
}

test.serial('PATCH of the profile: the other node answers the new profile at once, and so does the writer', async (t) => {
  const { issuerId } = await newIssuer('p-patch', true);
  t.is((await warm(reader(), 'p-patch', issuerId)).issuer.razaoSocial, 'EMPRESA TESTE LTDA');
  await warm(stack.nodes[0]!, 'p-patch', issuerId);
  const res = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers: as('p-patch'), body: { razaoSocial: 'NOVA RAZAO LTDA', crt: 3 } });
  t.is(res.status, 200, res.text);
  for (const node of stack.nodes) t.like((await forEmission(node, 'p-patch', issuerId)).issuer, { razaoSocial: 'NOVA RAZAO LTDA', crt: 3 });
});

test.serial('certificate installed, replaced, removed: the other node answers each state at once', async (t) => {
  const { issuerId, cnpj } = await newIssuer('p-cert');
  t.deepEqual((await warm(reader(), 'p-cert', issuerId)).preflight.type, 'CERTIFICADO_AUSENTE');

  const first = createA1(ca, { cnpj });
  t.is((await stack.request('POST', `/v1/companies/${issuerId}/certificate`, { headers: as('p-cert'), body: { pfxBase64: first.pfxBase64, password: first.password } })).status, 201);
  const installed = await forEmission(reader(), 'p-cert', issuerId);
  t.is(installed.preflight, null);
  t.regex(installed.certificate.fingerprint, /^[0-9a-f]{64}$/);

  await warm(reader(), 'p-cert', issuerId);
  const second = createA1(ca, { cnpj });
  t.is((await stack.request('POST', `/v1/companies/${issuerId}/certificate`, { headers: as('p-cert'), body: { pfxBase64: second.pfxBase64, password: second.password } })).status, 200);
  const replaced = await forEmission(reader(), 'p-cert', issuerId);
  t.not(replaced.certificate.fingerprint, installed.certificate.fingerprint);
  t.is(replaced.certificate.fingerprint, (await stack.knex('issuer.issuers').where({ id: issuerId }).first()).cert_fingerprint);

  await warm(reader(), 'p-cert', issuerId);
  t.is((await stack.request('DELETE', `/v1/companies/${issuerId}/certificate`, { headers: as('p-cert') })).status, 200);
  t.like(await forEmission(reader(), 'p-cert', issuerId), { certificate: null, preflight: { type: 'CERTIFICADO_AUSENTE' } });
});

test.serial('ambiente changed by a SUPERADMIN: the other node answers production at once (a test key is refused)', async (t) => {
  const { issuerId } = await newIssuer('p-amb', true);
  t.is((await warm(reader(), 'p-amb', issuerId)).issuer.ambienteFiscal, 2);
  const res = await stack.request('PATCH', `/v1/admin/companies/${issuerId}/ambiente`, { headers: as('x', SUPERADMIN), body: { ambienteFiscal: 1 } });
  t.is(res.status, 200, res.text);
  t.is((await forEmission(reader(), 'p-amb', issuerId)).issuer.ambienteFiscal, 1);
  const testKey = reader().call('v1.issuer.forEmission', { partnerId: 'p-amb', issuerId, model: '55', keyKind: 'test' }, { nodeID: reader().nodeID });
  t.deepEqual(await refusalOf(testKey), { type: 'CHAVE_TESTE_EMISSOR_PRODUCAO', code: 403 });
});

test.serial('issuer removed: the other node refuses it at once (EMISSOR_INEXISTENTE)', async (t) => {
  const { issuerId } = await newIssuer('p-del', true);
  await warm(reader(), 'p-del', issuerId);
  t.is((await stack.request('DELETE', `/v1/companies/${issuerId}`, { headers: as('p-del') })).status, 200);
  t.deepEqual(await refusalOf(forEmission(reader(), 'p-del', issuerId)), { type: 'EMISSOR_INEXISTENTE', code: 404 });
});

test.serial('transfer approved: the other node refuses the former holder and serves the new one, without certificate, at once', async (t) => {
  const { issuerId, cnpj } = await newIssuer('p-holder', true);
  await warm(reader(), 'p-holder', issuerId);
  const requested = await stack.request('POST', '/v1/companies/transfer-request', { headers: as('p-taker'), body: { cnpj, motivo: 'Compramos a empresa deste CNPJ.' } });
  t.is(requested.status, 202, requested.text);
  // The taker's own read before the approval: a miss (not its issuer), which is not remembered.
  t.deepEqual(await refusalOf(forEmission(reader(), 'p-taker', issuerId)), { type: 'NOT_FOUND', code: 404 });
  await warm(reader(), 'p-holder', issuerId);
  const approved = await stack.request('POST', `/v1/admin/transfer-requests/${requested.body.data.transferRequestId}/approve`, { headers: as('x', SUPERADMIN) });
  t.is(approved.status, 200, approved.text);
  t.deepEqual(await refusalOf(forEmission(reader(), 'p-holder', issuerId)), { type: 'NOT_FOUND', code: 404 });
  t.like(await forEmission(reader(), 'p-taker', issuerId), { issuer: { partnerId: 'p-taker', cnpj }, certificate: null, preflight: { type: 'CERTIFICADO_AUSENTE' } });
});

test.serial('logo installed and removed, secrets resealed: the other node drops the row as each write answers', async (t) => {
  const { issuerId } = await newIssuer('p-logo', true);
  const png = 'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAR0lEQVR4AcXBAQEAIAyAME4My1nSfj4G25z7PiGJSUxiEpOYxCQmMYlJTGISk5jEJCYxiUlMYhKTmMQkJjGJSUxiEpOYxCS2FNsCbJqy8REAAAAASUVORK5CYII=';
  await warm(reader(), 'p-logo', issuerId);
  t.is((await stack.request('PUT', `/v1/companies/${issuerId}/logo`, { headers: as('p-logo'), body: { imagemBase64: png } })).status, 200);
  t.is(cacheOf(reader()).peek(issuerId), undefined);
  await warm(reader(), 'p-logo', issuerId);
  t.is((await stack.request('DELETE', `/v1/companies/${issuerId}/logo`, { headers: as('p-logo') })).status, 200);
  t.is(cacheOf(reader()).peek(issuerId), undefined);

  // A row sealed under the old key, as before a rotation; resealSecrets rewrites it.
  const a1 = createA1(ca, { cnpj: (await stack.knex('issuer.issuers').where({ id: issuerId }).first()).cnpj });
  await stack.knex('issuer.issuers').where({ id: issuerId }).update({
    cert_pfx: encryptSecret(Buffer.from(a1.pfxBase64, 'base64'), [oldKey], `issuer:${issuerId}:pfx`),
    cert_password: encryptSecret(a1.password, [oldKey], `issuer:${issuerId}:pfx-password`),
  });
  await warm(reader(), 'p-logo', issuerId);
  t.deepEqual(await stack.nodes[0]!.call('v1.issuer.resealSecrets', {}, { nodeID: stack.nodes[0]!.nodeID }), { resealed: 1 });
  t.is(cacheOf(reader()).peek(issuerId), undefined);
});

test.serial('a node that never acknowledges the drop: the write answers after the lease, and that node answers the new row', async (t) => {
  const { issuerId } = await newIssuer('p-silent', true);
  // Node 1's drop action hangs (a node stalled or cut off): its requests are never answered in time.
  const endpoint = (reader().registry as any).getActionEndpointByNodeId(ISSUER_ROW_DROP_ACTION, reader().nodeID);
  const handler = endpoint.action.handler;
  endpoint.action.handler = () => new Promise((resolve) => setTimeout(() => resolve({ dropped: false }), LEASE_MS + 500));
  t.teardown(() => { endpoint.action.handler = handler; });

  t.is((await warm(reader(), 'p-silent', issuerId)).issuer.razaoSocial, 'EMPRESA TESTE LTDA');
  const started = performance.now();
  const res = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers: as('p-silent'), body: { razaoSocial: 'SEM ACK LTDA' } });
  const took = performance.now() - started;
  t.is(res.status, 200, res.text);
  t.true(took >= LEASE_MS, `the write waited for the silent node's lease (${Math.round(took)} ms)`);
  t.true(took < LEASE_MS + 1_500, `but not much longer (${Math.round(took)} ms)`);
  t.is((await forEmission(reader(), 'p-silent', issuerId)).issuer.razaoSocial, 'SEM ACK LTDA');
});

test.serial('a node whose transporter is down serves every read from Postgres, and keeps nothing for a lease after it reconnects', async (t) => {
  const { issuerId } = await newIssuer('p-cut', true);
  await warm(reader(), 'p-cut', issuerId);
  // What the Redis transporter shows once its connection closed: drops could not reach this node.
  const tx = (reader().transit as any).tx;
  tx.connected = false;
  t.teardown(() => { tx.connected = true; });
  await forEmission(reader(), 'p-cut', issuerId);
  t.is(cacheOf(reader()).size, 0, 'everything dropped at the first read that found the transporter down');
  await stack.knex('issuer.issuers').where({ id: issuerId }).update({ profile: stack.knex.raw(`profile || '{"razaoSocial": "LIDO DO BANCO LTDA"}'::jsonb`) });
  t.is((await forEmission(reader(), 'p-cut', issuerId)).issuer.razaoSocial, 'LIDO DO BANCO LTDA');
  t.is(cacheOf(reader()).size, 0, 'nothing kept while cut off');

  tx.connected = true;
  const reconnected = performance.now();
  reader().broadcastLocal('$transporter.connected', { wasReconnect: true });
  await forEmission(reader(), 'p-cut', issuerId);
  t.is(cacheOf(reader()).peek(issuerId), undefined, 'announced again, but its peers may not know it yet');
  await warm(reader(), 'p-cut', issuerId);
  t.true(performance.now() - reconnected >= LEASE_MS, 'kept again only a lease after the reconnection');
});
