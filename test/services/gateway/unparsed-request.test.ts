import test from 'ava';
import net from 'node:net';
import { Redis } from 'ioredis';
import { ManualClock } from '../../../services/shared/clock.js';
import { UNPARSED_CLOSE_GRACE_MS, UNPARSED_COUNT_WAIT_MS } from '../../../services/gateway/unparsed-request.js';
import { gatewayService } from '../../../services/gateway/service-this.js';
import { startPrivateRedis, type PrivateRedis } from '../../support/private-redis.js';
import { rawAnswer, type RawAnswer } from '../../support/raw-http.js';
import { startStack, type Stack } from '../../support/stack.js';

/**
 * Requests Node's parser refuses, answered on the raw socket (services/gateway/unparsed-request.ts),
 * count against the caller's per-IP window and carry its X-RateLimit-* like every other answer
 * (API.md, Limits). A stopped clock keeps every request of a test in one window; IP_RATE_LIMIT 3.
 * Redis is a server of this file's own: one test pauses it.
 */
const clock = () => new ManualClock('2026-11-27T12:00:00.100Z');
const RESET = String(Math.floor(Date.parse('2026-11-27T12:00:00.100Z') / 1000) + 1);
const BAD_PATH = Buffer.from('GET /v1/nfe/a b HTTP/1.1\r\nHost: x\r\n\r\n');
const CONTROL_BYTE = Buffer.from('GET /v1/nfe HTTP/1.1\r\nHost: x\r\nX-A: \x01\r\n\r\n');
const BIG_HEADER = Buffer.from(`GET /v1/nfe HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);

let redis: PrivateRedis;
test.before(async () => { redis = await startPrivateRedis(); });
test.after.always(() => redis?.stop());

function limitedStack(): Promise<Stack> {
  return startStack({ redis: true, clock: clock(), nodes: [{ services: ['api-gateway'] }], env: { REDIS_URL: redis.url, IP_RATE_LIMIT: '3' } });
}

/** Status line, then X-RateLimit-Limit, -Remaining and -Reset of one raw answer. */
const window = (a: RawAnswer) => [a.statusLine, a.headers['x-ratelimit-limit'], a.headers['x-ratelimit-remaining'], a.headers['x-ratelimit-reset']];

test.serial('an unparsed request counts against the per-IP window in Redis and carries X-RateLimit-*; past the limit it is still its 400, with Remaining 0', async (t) => {
  const stack = await limitedStack();
  t.teardown(() => stack.stop());
  const answers: RawAnswer[] = [];
  for (const bytes of [BAD_PATH, BIG_HEADER, CONTROL_BYTE, BAD_PATH]) answers.push(await rawAnswer(stack.url, bytes));
  t.deepEqual(answers.map(window), [
    ['HTTP/1.1 400 Bad Request', '3', '2', RESET],
    ['HTTP/1.1 431 Request Header Fields Too Large', '3', '1', RESET],
    ['HTTP/1.1 400 Bad Request', '3', '0', RESET],
    ['HTTP/1.1 400 Bad Request', '3', '0', RESET], // not 429: the bytes are no request a retry could make good
  ]);
  const last = answers[3]!;
  t.false('retry-after' in last.headers);
  t.like(JSON.parse(last.body).error, { type: 'https://errors.test/BAD_REQUEST', status: 400, instance: '/v1/nfe/a', requestId: last.headers['x-request-id'] });
  // The same window as every anonymous request of that address: the next well-formed one is refused.
  const version = await stack.request('GET', '/version');
  t.deepEqual([version.status, version.headers.get('x-ratelimit-remaining'), version.headers.get('x-ratelimit-reset')], [429, '0', RESET]);
});

test.serial('while Redis does not answer, an unparsed request is answered at once, counted on the node-local window', async (t) => {
  const stack = await limitedStack();
  t.teardown(() => stack.stop());
  const admin = new Redis(redis.url);
  t.teardown(() => admin.disconnect());
  await admin.call('CLIENT', 'PAUSE', '3000', 'ALL'); // every command of the gateway now waits 3 s
  const started = Date.now();
  const first = await rawAnswer(stack.url, BAD_PATH);
  const second = await rawAnswer(stack.url, CONTROL_BYTE);
  t.true(Date.now() - started < 3 * UNPARSED_COUNT_WAIT_MS + 1000, `answered after ${Date.now() - started} ms`);
  t.deepEqual([first, second].map(window), [['HTTP/1.1 400 Bad Request', '3', '2', RESET], ['HTTP/1.1 400 Bad Request', '3', '1', RESET]]);
  await new Promise((r) => setTimeout(r, 3000)); // the pause ends before the stack stops
});

test.serial('a refused connection is closed even when the client keeps its side open', async (t) => {
  const stack = await limitedStack();
  t.teardown(() => stack.stop());
  const server = gatewayService(stack.nodes[0]!.getLocalService('api')!).server!;
  const connections = () => new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
  const client = net.connect({ port: Number(new URL(stack.url).port), host: '127.0.0.1', allowHalfOpen: true });
  t.teardown(() => client.destroy());
  client.on('error', () => undefined);
  let answer = '';
  client.on('data', (d) => { answer += d.toString('utf8'); });
  await new Promise<void>((resolve) => client.once('end', resolve).write(BAD_PATH));
  t.regex(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.is(await connections(), 1); // half-open: the server has ended, the client has not
  await new Promise((r) => setTimeout(r, UNPARSED_CLOSE_GRACE_MS + 500));
  t.is(await connections(), 0);
});
