import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadConfig } from '../../../config.js';
import { listenAsGateway } from '../../../services/gateway/listen.js';
import { testEnv } from '../../support/stack.js';

/** Listens as moleculer-web's started() does: port, host and a callback, nothing else. */
function listenAsMoleculerWeb(server: Server, port: number): Promise<Error | undefined> {
  return new Promise((resolve) => (server.listen as unknown as (p: number, h: string, cb: (err?: Error) => void) => void)(port, '127.0.0.1', resolve));
}

/** The listening socket's backlog as the kernel holds it (`ss`'s Send-Q column of a listener). */
function kernelBacklog(port: number): number {
  const line = execFileSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' }).trim();
  const [state, , sendQ] = line.split(/\s+/);
  if (state !== 'LISTEN') throw new Error(`no listener on ${port}: ${line}`);
  return Number(sendQ);
}

const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));

test('the gateway listens with its backlog, not Node\'s 511: the kernel holds that many connections waiting for accept', async (t) => {
  const backlog = Math.min(1234, somaxconn);
  const server = createServer();
  listenAsGateway(server, backlog);
  t.is(await listenAsMoleculerWeb(server, 0), undefined);
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  t.is(kernelBacklog((server.address() as { port: number }).port), backlog);
});

test('a busy port reaches moleculer-web\'s callback as an error naming the address', async (t) => {
  const holder = createServer();
  t.is(await listenAsMoleculerWeb(holder, 0), undefined);
  t.teardown(() => new Promise<void>((r) => holder.close(() => r())));
  const port = (holder.address() as { port: number }).port;
  const server = createServer();
  listenAsGateway(server, 16);
  const err = await listenAsMoleculerWeb(server, port);
  t.is((err as NodeJS.ErrnoException | undefined)?.code, 'EADDRINUSE');
  t.is(err?.message, `cannot listen on 127.0.0.1:${port}: address already in use`);
});

test('HTTP_LISTEN_BACKLOG: 4096 unless set, and a positive integer when set', (t) => {
  t.is(loadConfig(testEnv()).http.listenBacklog, 4096);
  t.is(loadConfig(testEnv({ HTTP_LISTEN_BACKLOG: '8192' })).http.listenBacklog, 8192);
  t.throws(() => loadConfig(testEnv({ HTTP_LISTEN_BACKLOG: '0' })), { message: 'HTTP_LISTEN_BACKLOG must be a positive integer, got 0' });
});
