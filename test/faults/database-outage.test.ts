import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startCluster, partnerWithKey, type Cluster } from '../support/cluster.js';
import { companyWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { startPgProxy, type PgProxy } from '../support/pg-proxy.js';
import { postAs, unavailable, type Answer } from '../support/fault-answers.js';
import { waitFor } from '../support/webhooks.js';

/**
 * Issue 20, defect 7, on the real multi-process layout: every product process reaches Postgres
 * through a TCP proxy (test/support/pg-proxy.ts) that the test cuts, as an outage looks to them;
 * the simulator (the authority) and the test's own assertions keep a direct connection. During
 * the outage the request in flight and new ones answer the 503 SERVICE_UNAVAILABLE envelope with
 * Retry-After (the one in flight naming its note); once it ends, retrying with the same keys gives
 * exactly one document per key, each authorized once, and no skipped number.
 */
const SLOW_MS = 6_000;
let cluster: Cluster;
let proxy: PgProxy;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  cluster = await startCluster({}, { databaseUrlVia: async (url) => { proxy = await startPgProxy(url); return proxy.url; } });
  const partner = await partnerWithKey(cluster);
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(cluster, headers));
});
test.after.always(async () => {
  await proxy?.restore().catch(() => undefined);
  await cluster?.stop();
  await proxy?.close();
});

const documentsOf = (key: string) => cluster.knex('emission.documents').where({ idempotency_key: key }).select('id', 'number', 'status', 'access_key');

/** Retries with the key until the note is AUTHORIZED; every answer on the way is the same note (201) or the 503 envelope. */
async function retryUntilAuthorized(key: string, body: unknown): Promise<Answer> {
  let seen: string | undefined;
  return waitFor(async () => {
    const r = await postAs(cluster, headers, '/v1/nfe', body, key);
    if (r.status === 503 && r.headers.get('retry-after') === '5' && r.body?.error?.type === 'https://errors.test/SERVICE_UNAVAILABLE') return null;
    if (r.status !== 201) throw new Error(`unexpected answer to the retry of ${key}: ${r.status} ${r.text}`);
    if (seen && r.body.data.id !== seen) throw new Error(`a second note under ${key}: ${r.text}`);
    seen = r.body.data.id;
    if (r.body.data.status === 'AUTHORIZED') return r;
    // The lost attempt's 2-minute lease (transmitting_until) passes at once: the retry consults the authority by key.
    await cluster.knex('emission.documents').where({ id: seen, status: 'TRANSMITTING' }).update({ transmitting_until: cluster.knex.raw(`now() - interval '1 second'`) });
    return null;
  }, `the retry of ${key} answering AUTHORIZED`, 120_000);
}

test.serial('Postgres cut under the cluster: 503 envelopes with Retry-After in flight and for new requests; back, the same keys give one authorized note each, no gap', async (t) => {
  const inFlightKey = `pedido-${randomUUID()}`;
  const newKey = `pedido-${randomUUID()}`;
  const [inFlightBody, newBody] = [aValidNfeBody(), aValidNfeBody()];
  // A first note before the outage: the numbers after it must continue from 2.
  const before = await postAs(cluster, headers, '/v1/nfe', aValidNfeBody(), `pedido-${randomUUID()}`);
  t.is(before.status, 201, before.text);
  t.is(before.body.data.status, 'AUTHORIZED');

  await cluster.addFault({ mode: 'slow', service: 'NFeAutorizacao4', delayMs: SLOW_MS, times: 1 });
  const first = postAs(cluster, headers, '/v1/nfe', inFlightBody, inFlightKey);
  const doc = await waitFor(async () => (await documentsOf(inFlightKey)).find((d: any) => d.status === 'TRANSMITTING'), 'the note in flight', 60_000);
  await waitFor(async () => (await cluster.faults()).length === 0, 'the authority holding the note', 30_000);
  await proxy.cut();

  // The authority answers while the database is away: storing its answer fails, and the client is told so.
  const lost = await first;
  t.is(lost.status, 503, lost.text);
  t.is(lost.headers.get('retry-after'), '5');
  t.deepEqual(lost.body, unavailable(lost, '/v1/nfe', { invoiceId: doc.id, status: 'TRANSMITTING' }));

  const fresh = await postAs(cluster, headers, '/v1/nfe', newBody, newKey);
  t.is(fresh.status, 503, fresh.text);
  t.is(fresh.headers.get('retry-after'), '5');
  t.deepEqual(fresh.body, unavailable(fresh, '/v1/nfe'));
  const health = await fetch(`${cluster.url}/health`);
  t.is(health.status, 503);

  await proxy.restore();
  await waitFor(async () => (await fetch(`${cluster.url}/health`)).status === 200, 'the cluster healthy again', 60_000);
  const settled = await retryUntilAuthorized(inFlightKey, inFlightBody);
  t.like(settled.body.data, { id: doc.id, number: doc.number, accessKey: doc.access_key, status: 'AUTHORIZED' });
  const created = await retryUntilAuthorized(newKey, newBody);
  t.like(created.body.data, { number: 3, status: 'AUTHORIZED' });

  for (const key of [inFlightKey, newKey]) t.is((await documentsOf(key)).length, 1, `one document under ${key}`);
  const docs = await cluster.knex('emission.documents').where({ issuer_id: issuerId }).orderBy('number').select('id', 'number', 'status');
  t.deepEqual(docs.map((d: any) => [d.number, d.status]), [[1, 'AUTHORIZED'], [2, 'AUTHORIZED'], [3, 'AUTHORIZED']], 'no gap, no duplicate');
  const authorized = (await cluster.knex('emission.outbox').select('payload')).filter((r: any) => r.payload.type === 'invoice.authorized').map((r: any) => r.payload.data.invoiceId);
  t.deepEqual(authorized.sort(), docs.map((d: any) => d.id).sort(), 'one invoice.authorized per note');
});
