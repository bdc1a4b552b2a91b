import test from 'ava';
import { Redis } from 'ioredis';
import { startCluster, partnerWithKey, type Cluster, type Role } from '../support/cluster.js';
import { companyWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';

/**
 * Issue 20, defect 5, on the real multi-process layout: the cluster's Redis (its transporter and
 * its Streams) is a private redis-server that the test kills and starts again empty on the same
 * port, as a Redis restart without persistence looks to the nodes; no node is restarted. Every
 * invoice.authorized emitted afterwards reaches the partner's receiver exactly once, batch items
 * leave QUEUED, and the nodes do not flood their logs with NOGROUP.
 */
let redis: PrivateRedis;
let cluster: Cluster;
let receiver: Receiver;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  redis = await startPrivateRedis();
  cluster = await startCluster({ WEBHOOK_POLL_MS: '200' }, { redisUrl: redis.url });
  const partner = await partnerWithKey(cluster);
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(cluster, headers));
  receiver = await startReceiver();
  const hook = await cluster.request('PATCH', '/v1/webhooks/config', { headers, body: { webhookUrl: receiver.url, events: ['invoice.authorized'] } });
  if (hook.status !== 200) throw new Error(`webhook config: ${hook.status} ${hook.text}`);
  receiver.secret = hook.body.data.webhookSecret;
});
test.after.always(async () => {
  await receiver?.close();
  await cluster?.stop();
  await redis?.stop();
});

async function emitOne(): Promise<string> {
  const res = await cluster.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  if (res.status !== 201 || res.body.data.status !== 'AUTHORIZED') throw new Error(`emission: ${res.status} ${res.text}`);
  return res.body.data.id;
}

async function runBatch(size: number): Promise<string[]> {
  const res = await cluster.request('POST', '/v1/nfe/batch', { headers, body: { notas: Array.from({ length: size }, () => aValidNfeBody()) } });
  if (res.status !== 202) throw new Error(`batch: ${res.status} ${res.text}`);
  const view = await waitFor(async () => {
    const got = (await cluster.request('GET', `/v1/nfe/batch/${res.body.data.id}`, { headers })).body?.data;
    return got && got.contagem.QUEUED + got.contagem.PROCESSING === 0 ? got : null;
  }, `the batch of ${size} leaving QUEUED`, 90_000);
  if (view.contagem.COMPLETED !== size) throw new Error(`batch: ${JSON.stringify(view.contagem)}`);
  return view.items.map((i: any) => i.resultData.id as string);
}

async function runId(): Promise<string> {
  const client = new Redis(redis.url);
  try { return /run_id:(\w+)/.exec(await client.info('server'))![1]!; } finally { client.disconnect(); }
}

const hooksOf = (ids: string[]) => receiver.hits.filter((h) => h.body?.type === 'invoice.authorized' && ids.includes(h.body.data.invoiceId));

test.serial('Redis restarts empty under a running cluster: every invoice.authorized delivered once, batches complete, no node restart', async (t) => {
  const before = [await emitOne(), ...(await runBatch(2))];
  await waitFor(async () => hooksOf(before).length === before.length, 'the webhooks before the restart', 30_000);

  const runIdBefore = await runId();
  await redis.restartEmpty();
  // The nodes reconnect by themselves, each on its own schedule (ioredis's back-off): the gateway
  // answers authenticated requests again (gateway ↔ core), then lists notes several times in a row
  // (gateway ↔ either emission node). A request published before its target's subscriber is back
  // is lost (Redis pub/sub keeps nothing) and would wait for the broker's 90 s timeout, longer
  // than this wait: so each try is bounded, on both paths.
  const answers = (path: string) => fetch(`${cluster.url}${path}`, { headers, signal: AbortSignal.timeout(3_000) }).then((r) => r.status === 200, () => false);
  await waitFor(() => answers('/v1/auth/me'), 'the cluster answering again', 60_000);
  await waitFor(async () => {
    for (let i = 0; i < 6; i++) if (!(await answers('/v1/nfe?limit=1'))) return false;
    return true;
  }, 'both emission nodes answering again', 90_000);

  const after = [await emitOne(), await emitOne(), await emitOne(), ...(await runBatch(3))];
  await waitFor(async () => hooksOf(after).length >= after.length, 'every invoice.authorized after the restart', 60_000);

  const all = [...before, ...after];
  t.is(new Set(all).size, 9);
  t.deepEqual(hooksOf(all).map((h) => h.body.data.invoiceId).sort(), [...all].sort(), 'one webhook per note');
  t.true(receiver.hits.every((h) => h.verified), 'every webhook signed with the partner secret');
  const numbers = (await cluster.knex('emission.documents').where({ issuer_id: issuerId }).orderBy('number').pluck('number')).map(Number);
  t.deepEqual(numbers, [1, 2, 3, 4, 5, 6, 7, 8, 9], 'no gap, no duplicate');
  const unpublished = await cluster.knex('emission.outbox').whereNull('published_at').count<{ n: string }[]>('* as n');
  t.is(Number(unpublished[0]!.n), 0, 'every outbox row handed over');
  t.deepEqual(await cluster.knex('emission.batch_items').where({ status: 'QUEUED' }).select('id'), [], 'no batch item left QUEUED');

  // The lost groups were recreated on the new server (by the running nodes) and said so a few
  // times, not hundreds of times a second.
  const client = new Redis(redis.url);
  t.teardown(() => client.disconnect());
  t.not(await client.info('server').then((i) => /run_id:(\w+)/.exec(i)![1]), runIdBefore, 'a new Redis server');
  const groups = (await client.xinfo('GROUPS', `${cluster.env.NAMESPACE}.emission.batch`)) as unknown[][];
  t.is(groups.length, 1, 'the batch queue group is back');
  let recreated = 0;
  for (const role of ['core', 'emission-1', 'emission-2'] as Role[]) {
    const lines = cluster.logs(role).split('\n');
    recreated += lines.filter((l) => /consumer group .* was missing/.test(l)).length;
    const nogroup = lines.filter((l) => /NOGROUP/.test(l));
    t.true(nogroup.length <= 12, `${role}: ${nogroup.length} NOGROUP lines in its last output`);
  }
  t.true(recreated > 0, 'the recreation is logged');
});
