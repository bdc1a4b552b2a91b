import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Issue 21, item 2: the README's order works: `npm start` (embedded: PGlite, no Redis) runs, and
 * `npm run admin` and `npm run repl` beside it join that node over loopback instead of opening its
 * database a second time (which the PGlite pid file refuses). The server is a real process.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'Senha-de-teste-123';
let server: ChildProcess;
let serverLog = '';
let url: string;
let env: Record<string, string | undefined>;
let varDir: string;

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => done(port)); });
  });
}

test.before(async () => {
  varDir = mkdtempSync(join(tmpdir(), 'fiscal-embedded-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const { REDIS_URL: _r, DATABASE_URL: _d, ...inherited } = process.env;
  env = {
    ...inherited, NODE_ENV: 'test', LOG_LEVEL: 'error', VAR_DIR: varDir, PORT: String(port), HOST: '127.0.0.1',
    MONITOR_ENABLED: '0', AUTH_ARGON2_MEMORY_KIB: '1024', NAMESPACE: '',
  };
  server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (c) => { serverLog += c; });
  server.stderr!.on('data', (c) => { serverLog += c; });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`npm start exited ${server.exitCode}\n${serverLog}`);
    if (await fetch(`${url}/health`).then((r) => r.status === 200, () => false)) break;
    if (Date.now() > deadline) throw new Error(`npm start never answered /health\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.after.always(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (varDir) rmSync(varDir, { recursive: true, force: true });
});

function run(script: string, args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

test.serial('npm run admin -- create-partner beside a running embedded npm start: the running node creates it and its owner can log in', async (t) => {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const created = await run('bin/admin.ts', ['create-partner', '--name', 'Parceiro Embutido', '--owner-email', email, '--owner-password', PASSWORD, '--subscription', 'ACTIVE']);
  t.is(created.code, 0, created.stderr);
  const partner = JSON.parse(created.stdout);
  t.regex(partner.partnerId, /^[0-9a-f-]{36}$/);
  t.is(partner.owner.email, email);

  const login = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  t.is(login.status, 201);
  t.like(((await login.json()) as any).data, { mfa_required: true });
  t.is(server.exitCode, null, 'the server still runs');
});

test.serial('npm run repl beside a running embedded npm start joins its node', async (t) => {
  const repl = await run('bin/repl.ts', [], 'nodes\nquit\n');
  t.is(repl.code, 0, repl.stderr);
  t.true(repl.stdout.includes(`${hostname()}-${server.pid}`), repl.stdout);
});

test.serial('npm run migrate beside a running embedded npm start refuses in one line (exit 1, no stack trace): the running node migrated at start', async (t) => {
  const migrate = await run('bin/migrate.ts', []);
  t.is(migrate.code, 1);
  t.is(migrate.stdout, '');
  t.is(migrate.stderr, `migrate: embedded database ${join(varDir, 'pgdata')} is in use by process ${server.pid}: stop it first, or use DATABASE_URL to share a PostgreSQL server\n`);
  t.is(server.exitCode, null, 'the server still runs');
});
