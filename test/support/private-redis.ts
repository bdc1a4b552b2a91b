import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './local-resources.js';
import { Redis } from 'ioredis';

/**
 * A redis-server of one test's own (issue 20, defect 5): `restartEmpty()` is Redis restarting
 * with nothing persisted, on the same port, so the nodes reconnect to a server without their
 * streams and consumer groups. The shared 6379 server, which other tests use, is never touched.
 */
export interface PrivateRedis {
  readonly url: string;
  /** SIGKILL, then a new empty server on the same port; resolves once it answers PING. */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}


export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const killWithUs = () => child?.kill('SIGKILL');
  process.once('exit', killWithUs);

  async function start(): Promise<void> {
    // Nothing persisted: a restart is empty, as the Redis was.
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = c;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined); // refused until the server listens: the loop asks again
      const ok = await probe.connect().then(() => probe.ping()).then((p) => p === 'PONG', () => false);
      probe.disconnect();
      if (ok) return;
      if (c.exitCode !== null) throw new Error(`redis-server exited (${c.exitCode})`);
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function kill(): Promise<void> {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url,
    async restartEmpty() { await kill(); await start(); },
    async stop() { await kill(); process.off('exit', killWithUs); },
  };
}
