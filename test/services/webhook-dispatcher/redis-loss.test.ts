import test from 'ava';
import { Redis } from 'ioredis';
import { captureLogs, startStack, TEST_REDIS_URL } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { EmissionWorld, aFakePartner, aSmallNote } from '../../support/emission-world.js';
import { fakePipeline } from '../../support/fake-pipeline.js';
import { bindPipeline } from '../../../services/emission/pipeline-binding.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { subscribe, waitFor } from '../../support/webhooks.js';

/**
 * Issue 20, defect 5: Redis restarting empty (here: this stack's stream keys deleted, under its own
 * namespace prefix; the shared Redis server is neither flushed nor restarted) must not lose a
 * webhook nor stall a batch, and must not need a node restart. Two nodes run emission and the
 * dispatcher; the stand-ins authorize every note.
 */
bindPipeline(fakePipeline);

async function deleteStreams(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}.*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  if (keys.length) await redis.del(...keys);
  return keys;
}

test('after the stream keys and their consumer groups vanish, every invoice.authorized is delivered and batch items complete, with no node restart and no log flood', async (t) => {
  const world = new EmissionWorld();
  const logs = [captureLogs(), captureLogs()];
  const stack = await startStack({
    redis: true,
    env: { WEBHOOK_POLL_MS: '100', LOG_LEVEL: 'warn' },
    nodes: [
      { services: ['api-gateway', 'emission', 'webhook-dispatcher'], extra: [FakeAuthService, world.issuerService(), world.sefazService()], logDestination: logs[0]!.stream },
      { services: ['emission', 'webhook-dispatcher'], logDestination: logs[1]!.stream },
    ],
  });
  const redis = new Redis(TEST_REDIS_URL);
  const receiver = await startReceiver();
  t.teardown(async () => { await receiver.close(); redis.disconnect(); await stack.stop(); });
  const p = aFakePartner();
  world.addIssuer(p.partnerId);
  await subscribe(stack, receiver, p.partnerId, ['invoice.authorized']);

  const emitOne = async () => {
    const res = await stack.request('POST', '/v1/nfe', { body: aSmallNote(), headers: p.headers });
    t.is(res.status, 201, res.text);
    t.is(res.body.data.status, 'AUTHORIZED');
    return res.body.data.id as string;
  };
  const runBatch = async (size: number) => {
    const res = await stack.request('POST', '/v1/nfe/batch', { body: { notas: Array.from({ length: size }, () => aSmallNote()) }, headers: p.headers });
    t.is(res.status, 202, res.text);
    const view = await waitFor(async () => {
      const got = (await stack.request('GET', `/v1/nfe/batch/${res.body.data.id}`, { headers: p.headers })).body.data;
      return got.contagem.COMPLETED + got.contagem.FAILED === size ? got : null;
    }, `batch of ${size} settled`, 30_000);
    t.deepEqual(view.contagem, { QUEUED: 0, PROCESSING: 0, COMPLETED: size, FAILED: 0 });
    return view.items.map((i: any) => i.resultData.id as string);
  };
  const delivered = (ids: string[]) => ids.every((id) => receiver.hits.some((h) => h.body?.data?.invoiceId === id));

  // Before: groups exist and everything flows.
  const before = [await emitOne(), ...(await runBatch(2))];
  await waitFor(async () => delivered(before), 'webhooks before the loss', 20_000);

  // Redis "restarts empty" for this stack: its streams, their entries and consumer groups are gone.
  const gone = await deleteStreams(redis, stack.config.namespace);
  t.true(gone.some((k) => k.endsWith('.emission.batch')), gone.join(', '));

  const after = [await emitOne(), await emitOne(), await emitOne(), ...(await runBatch(3))];

  // A batch whose queue messages Redis lost with the rest (published, then gone): its items wait
  // QUEUED until the sweeper sends them again, and the recreated groups deliver them.
  const emission: any[] = stack.nodes.map((n) => n.getLocalService('v1.emission'));
  const enqueue = emission.map((svc) => svc.enqueueItem);
  for (const svc of emission) svc.enqueueItem = async () => undefined;
  const lost = await stack.request('POST', '/v1/nfe/batch', { body: { notas: [aSmallNote(), aSmallNote()] }, headers: p.headers });
  emission.forEach((svc, i) => { svc.enqueueItem = enqueue[i]; });
  t.is(lost.status, 202, lost.text);
  await deleteStreams(redis, stack.config.namespace);
  await stack.knex('emission.batch_items').where({ batch_id: lost.body.data.id }).update({ enqueued_at: new Date(Date.now() - 5 * 60_000) });
  t.deepEqual(await stack.nodes[1]!.call('v1.emission.sweepBatches', {}), { requeued: 2 });
  const swept = await waitFor(async () => {
    const got = (await stack.request('GET', `/v1/nfe/batch/${lost.body.data.id}`, { headers: p.headers })).body.data;
    return got.contagem.COMPLETED === 2 ? got : null;
  }, 'the swept batch completed', 30_000);
  after.push(...swept.items.map((i: any) => i.resultData.id as string));
  await waitFor(async () => delivered(after), 'every invoice.authorized after the loss', 30_000);
  t.is(receiver.hits.filter((h) => h.body?.type === 'invoice.authorized').length, before.length + after.length, 'one webhook per note');
  t.true(receiver.hits.every((h) => h.verified));
  const published = await stack.knex('emission.outbox').whereNull('published_at').count<{ n: string }[]>('* as n');
  t.is(Number(published[0]!.n), 0, 'every outbox row handed over');

  // The groups are back (from 0) and the nodes said so a few times, not hundreds of times a second.
  const groups = (await redis.xinfo('GROUPS', `${stack.config.namespace}.emission.batch`)) as unknown[][];
  t.is(groups.length, 1);
  const lines = [...logs[0]!.text().split('\n'), ...logs[1]!.text().split('\n')];
  const groupLines = lines.filter((l) => /NOGROUP|UNBLOCKED|consumer group/.test(l));
  t.log(`${groupLines.length} log lines about the lost groups`);
  t.true(groupLines.length > 0, 'the recovery is logged');
  t.true(groupLines.length <= 12, `${groupLines.length} lines:\n${groupLines.slice(0, 20).join('\n')}`);
});
