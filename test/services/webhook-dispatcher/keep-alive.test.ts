import test from 'ava';
import net, { type AddressInfo } from 'node:net';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { anEvent, publish, publishAndWait, runDue, subscribe, waitFor } from '../../support/webhooks.js';
import { postWebhook, WebhookAgents } from '../../../services/webhooks/post-webhook.js';

const nodes = [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }];
let stack: Stack;
test.before(async () => {
  stack = await startStack({ nodes, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_MAX_SOCKETS: '3' } });
});
test.after.always(async () => stack?.stop());

// runDue sends every due delivery of the shared stack: the tests that use it run serially.
async function withReceiver(t: any): Promise<Receiver> {
  const r = await startReceiver();
  t.teardown(() => r.close());
  return r;
}

test.serial('several deliveries to the same receiver reuse one kept-alive connection', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-reuse');
  for (let i = 0; i < 5; i++) {
    await publishAndWait(stack, anEvent('p-reuse'));
    t.is(await runDue(stack), 1);
  }
  t.is(receiver.hits.length, 5);
  t.true(receiver.hits.every((h) => h.verified));
  t.is(receiver.connections, 1);
  const statuses = await stack.knex('webhooks.deliveries').where({ partner_id: 'p-reuse' }).pluck('status');
  t.deepEqual(statuses, Array(5).fill('delivered'));
});

test.serial('a burst to one receiver opens at most WEBHOOK_MAX_SOCKETS connections', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-burst');
  const events = Array.from({ length: 12 }, () => anEvent('p-burst'));
  await Promise.all(events.map((e) => publish(stack, e)));
  await waitFor(async () => Number((await stack.knex('webhooks.deliveries').where({ partner_id: 'p-burst' }).count({ n: '*' }))[0]!.n) === 12, 'deliveries recorded');
  t.is(await runDue(stack), 12); // one claim of 12, sent concurrently
  t.is(new Set(receiver.hits.map((h) => h.body.id)).size, 12);
  t.is(receiver.connections, 3);
});

test.serial('a kept-alive connection the receiver closed is replaced by a new one', async (t) => {
  const receiver = await withReceiver(t);
  await subscribe(stack, receiver, 'p-dropped');
  await publishAndWait(stack, anEvent('p-dropped'));
  await runDue(stack);
  receiver.dropIdleConnections();
  await waitFor(async () => receiver.openConnections() === 0, 'receiver closed its side');
  await publishAndWait(stack, anEvent('p-dropped'));
  await runDue(stack);
  t.is(receiver.hits.length, 2);
  t.is(receiver.connections, 2);
  t.deepEqual(await stack.knex('webhooks.deliveries').where({ partner_id: 'p-dropped' }).pluck('status'), ['delivered', 'delivered']);
});

test('the dispatcher closes its kept-alive connections when it stops', async (t) => {
  // Idle sockets would otherwise stay open for a minute: only the stop can close them in time.
  const own = await startStack({ nodes, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_IDLE_SOCKET_MS: '60000' } });
  let stopped = false;
  t.teardown(() => (stopped ? undefined : own.stop()));
  const receiver = await withReceiver(t);
  await subscribe(own, receiver, 'p-stop');
  await publishAndWait(own, anEvent('p-stop'));
  await runDue(own);
  t.is(receiver.openConnections(), 1);
  await own.stop();
  stopped = true;
  await waitFor(async () => receiver.openConnections() === 0, 'connection closed by the stopping node', 1_000);
  t.is(receiver.connections, 1);
});

const post = (url: string, allowPrivateTargets: boolean, agents: WebhookAgents) =>
  postWebhook({ url, body: '{"id":"x"}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2_000, allowPrivateTargets }, agents);

test('connection reuse does not bypass the SSRF guard: a pooled origin is still refused when its address is not allowed', async (t) => {
  const receiver = await withReceiver(t);
  const agents = new WebhookAgents({ maxSocketsPerOrigin: 2, idleSocketMs: 60_000 });
  t.teardown(() => agents.destroy());
  const url = receiver.url.replace('127.0.0.1', 'localhost');

  t.like(await post(url, true, agents), { statusCode: 200, error: null });
  t.is(receiver.openConnections(), 1); // pooled, idle

  const refused = await post(url, false, agents);
  t.is(refused.statusCode, null);
  t.is(refused.error, 'destino bloqueado: webhookUrl resolve para endereço não público (127.0.0.1).');
  t.is(receiver.hits.length, 1);

  // The pooled connection was there all along: the refusal is the per-delivery check, not an empty pool.
  t.like(await post(url, true, agents), { statusCode: 200, error: null });
  t.is(receiver.hits.length, 2);
  t.is(receiver.connections, 1);
});

test('a pooled connection reset by the receiver as it is reused is retried once on a new connection', async (t) => {
  // A raw HTTP server that answers the first request of a connection with keep-alive and resets
  // the connection on the second, as a receiver whose keep-alive timer fired at that moment.
  let connections = 0;
  let requests = 0;
  const server = net.createServer((socket) => {
    connections++;
    let seen = 0;
    socket.on('data', (chunk) => {
      if (!chunk.toString('latin1').startsWith('POST ')) return;
      requests++;
      if (++seen === 2) { socket.destroy(); return; }
      socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const agents = new WebhookAgents({ maxSocketsPerOrigin: 1, idleSocketMs: 60_000 });
  t.teardown(() => agents.destroy());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  t.like(await post(url, true, agents), { statusCode: 204, error: null });
  t.like(await post(url, true, agents), { statusCode: 204, error: null });
  t.deepEqual({ connections, requests }, { connections: 2, requests: 3 });
});

test('a 200 whose body never ends is taken as the answer after 64 KB and its connection closed, instead of drained until the timeout', async (t) => {
  // Answers 200 and streams 1 MB chunks for as long as the connection is open.
  const chunk = Buffer.alloc(1 << 20, 97);
  let closedByUs = 0;
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('close', () => closedByUs++);
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Type: text/plain\r\n\r\n');
      const pump = () => { while (!socket.destroyed && socket.write(chunk)); if (!socket.destroyed) socket.once('drain', pump); };
      pump();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const agents = new WebhookAgents({ maxSocketsPerOrigin: 1, idleSocketMs: 60_000 });
  t.teardown(() => agents.destroy());

  const result = await post(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, true, agents);
  t.is(result.statusCode, 200);
  t.is(result.error, null);
  t.true(result.latencyMs < 1_000, `${result.latencyMs} ms (the timeout is 2000 ms)`);
  await waitFor(async () => closedByUs === 1, 'the flooding connection closed', 1_000);
});
