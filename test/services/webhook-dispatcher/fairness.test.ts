import test from 'ava';
import net, { type AddressInfo, type Socket } from 'node:net';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { anEvent, liveKey, publishAndWait, runDue, subscribe, waitFor } from '../../support/webhooks.js';

/**
 * One partner's receiver that never answers must not delay another partner's deliveries. The
 * scheduler used to send claims of 20 in rounds, each waiting for its slowest attempt: 21 hanging
 * deliveries ahead held another partner's event for a whole timeout.
 */
test('a receiver that never answers holds only its own partner\'s deliveries, never another partner\'s', async (t) => {
  const stack = await startStack({
    nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }],
    env: { WEBHOOK_POLL_MS: '0', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_MAX_SOCKETS: '10' },
  });
  t.teardown(() => stack.stop());
  const sockets = new Set<Socket>();
  let concurrent = 0;
  let maxConcurrent = 0;
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    maxConcurrent = Math.max(maxConcurrent, ++concurrent);
    socket.on('error', () => undefined);
    socket.on('close', () => { sockets.delete(socket); concurrent--; });
    socket.resume(); // reads (and drops) the request, so it sees the dispatcher close the connection
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => { for (const s of sockets) s.destroy(); silent.close(() => r()); }));
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());

  const config = await stack.request('PATCH', '/v1/webhooks/config', { headers: liveKey('p-silent'), body: { webhookUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`, events: [] } });
  t.is(config.status, 200, config.text);
  await subscribe(stack, receiver, 'p-answers');
  for (let i = 0; i < 21; i++) await publishAndWait(stack, anEvent('p-silent'));
  await publishAndWait(stack, anEvent('p-answers')); // due after all 21: the second claim of 20 before

  const started = performance.now();
  const round = runDue(stack);
  await waitFor(async () => receiver.hits.length === 1, 'the answering partner\'s delivery', 5_000);
  const ms = performance.now() - started;
  t.true(ms < 1_000, `delivered after ${ms.toFixed(0)} ms (the timeout is 2000 ms)`);
  t.is(await round, 22);
  t.true(maxConcurrent <= 10, `${maxConcurrent} connections of the silent partner at once`);
  const statuses = await stack.knex('webhooks.deliveries').select('partner_id', 'status', 'attempts');
  t.deepEqual(statuses.filter((d) => d.partner_id === 'p-answers').map((d) => d.status), ['delivered']);
  t.true(statuses.filter((d) => d.partner_id === 'p-silent').every((d) => d.status === 'pending' && d.attempts === 1));
});
