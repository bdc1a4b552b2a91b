import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, testEnv } from './support/stack.js';

/**
 * server.ts as a process, the way `npm start` and a supervisor run it (issue 21 item 3): signals,
 * a busy port, the start-up log, and readiness while draining. A gateway-only node over a fresh
 * Postgres database keeps each start short.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Proc { child: ChildProcess; out: string[]; exited: Promise<number | null>; lines(): any[] }

const children = new Set<ChildProcess>();
const serverPids = new Set<number>();
test.after.always(() => {
  // Nothing of ours outlives the test file, whatever failed.
  for (const c of children) c.kill('SIGKILL');
  for (const pid of serverPids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
});

function run(command: string, args: string[], env: Record<string, string>): Proc {
  const { REDIS_URL: _r, DATABASE_URL: _d, npm_lifecycle_event: _l, ...inherited } = process.env;
  const child = spawn(command, args, { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const out: string[] = [];
  const keep = (chunk: Buffer) => out.push(chunk.toString());
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => { children.delete(child); done(code); }));
  const lines = () => out.join('').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { child, out, exited, lines };
}

async function until(what: string, p: Proc, check: () => boolean | Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await Promise.resolve(check()).catch(() => false))) {
    if (p.child.exitCode !== null) throw new Error(`${what}: the process exited (${p.child.exitCode})\n${p.out.join('')}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${p.out.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

async function gatewayEnv(t: { teardown(fn: () => Promise<void> | void): void }, extra: Record<string, string> = {}): Promise<{ env: Record<string, string>; port: number }> {
  const db = await createTestDatabase();
  const port = await freePort();
  const env = testEnv({ DATABASE_URL: db.url, SERVICES: 'api-gateway', PORT: String(port), LOG_LEVEL: 'info', ...extra });
  t.teardown(async () => { await db.drop(); rmSync(env.VAR_DIR!, { recursive: true, force: true }); });
  return { env, port };
}

const upLine = (p: Proc) => p.lines().find((l) => / up: /.test(l.msg ?? ''));

test('npm start: a short start-up log with one line naming the URL; SIGTERM to npm stops the server and both exit 0', async (t) => {
  const { env, port } = await gatewayEnv(t);
  const npm = run('npm', ['start'], env);
  await until('the node to be up', npm, () => !!upLine(npm));
  const up = upLine(npm);
  serverPids.add(up.pid);
  t.is(up.level, 30);
  t.is(up.mod, 'server');
  t.true(up.msg.includes(`listening on http://127.0.0.1:${port}`), up.msg);
  const startup = npm.lines();
  t.is(startup.filter((l) => String(l.msg).includes(`http://127.0.0.1:${port}`)).length, 2, 'ours, and moleculer-web\'s own "listening on"');
  // The route table is at debug: no alias or route registration at info.
  t.deepEqual(startup.filter((l) => /Register|=> |\/v1\//.test(String(l.msg))), []);
  // Moleculer's banner (version, namespace, strategy, serializer…) is quiet at info.
  t.deepEqual(startup.filter((l) => l.mod === 'broker' || l.mod === 'registry'), []);
  t.true(startup.length <= 12, startup.map((l) => l.msg).join('\n'));
  t.is((await fetch(`http://127.0.0.1:${port}/health/live`)).status, 200);

  npm.child.kill('SIGTERM');
  t.is(await npm.exited, 0, npm.out.join(''));
  // npm waited for its child: the server is gone, not orphaned.
  t.throws(() => process.kill(up.pid, 0), { code: 'ESRCH' });
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/health/live`));
  t.true(npm.lines().some((l) => l.msg?.startsWith('draining') && l.signal === 'SIGTERM'));
});

test('a busy port: the node exits 1 with the address in its message instead of hanging', async (t) => {
  const { env, port } = await gatewayEnv(t);
  const holder: Server = createServer();
  await new Promise<void>((r) => holder.listen(port, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => holder.close(() => r())));
  const node = run(process.execPath, ['--import', 'tsx', 'server.ts'], env);
  const code = await Promise.race([node.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 90_000).unref())]);
  t.is(code, 1, node.out.join(''));
  const fatal = node.lines().filter((l) => l.level === 60);
  t.is(fatal.length, 1, node.out.join(''));
  t.true(fatal[0].msg.includes(`127.0.0.1:${port}`), fatal[0].msg);
  t.regex(fatal[0].msg, /address already in use/);
});

test('SIGTERM: readiness answers 503 at once while the node drains, liveness stays 200, then the process exits 0', async (t) => {
  // A long drain, so the probe surely lands inside it; the test does not measure it.
  const { env, port } = await gatewayEnv(t, { DRAIN_DELAY_MS: '8000' });
  const node = run(process.execPath, ['--import', 'tsx', 'server.ts'], env);
  await until('the node to be up', node, () => !!upLine(node));
  serverPids.add(upLine(node).pid);
  const base = `http://127.0.0.1:${port}`;
  t.is((await fetch(`${base}/health/ready`)).status, 200);

  node.child.kill('SIGTERM');
  await until('the drain to begin', node, () => node.lines().some((l) => l.msg?.startsWith('draining')));
  const ready = await fetch(`${base}/health/ready`);
  t.is(ready.status, 503);
  const body: any = await ready.json();
  t.like(body.error, { type: 'https://errors.test/SERVICE_UNAVAILABLE', status: 503, detail: 'Nó encerrando: não recebe novas requisições.' });
  t.is(body.error.requestId, ready.headers.get('x-request-id'));
  t.is((await fetch(`${base}/health/live`)).status, 200);
  t.is(await node.exited, 0, node.out.join(''));
});
