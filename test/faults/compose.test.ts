import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { composeUp, readCompose, readDockerfile, type ComposeRun } from '../support/compose.js';
import { companyWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';

/**
 * Issue 21, items 11 and 12: docker-compose.yml works. Docker cannot run here, so
 * test/support/compose.ts builds the image's JavaScript as the Dockerfile does and starts every
 * service of the compose file as real processes with its command, environment, replicas,
 * depends_on order and healthchecks. A partner is made the way the README says (the admin command
 * inside the core container, joining the cluster), and an NF-e is authorized over HTTP through
 * the gateway, two emission replicas, the core node and the standalone simulator over mutual TLS.
 */
let run: ComposeRun;

test.before(async () => { run = await composeUp(); });
test.after.always(async () => { await run?.stop(); });

const compose = readCompose();
const app = Object.entries(compose.services).filter(([name]) => name !== 'postgres' && name !== 'redis');

test('every node of the compose file runs under an init, restarts by policy and has a healthcheck; the image runs node as a non-root user', (t) => {
  for (const [name, service] of app) {
    t.true(service.init, `${name}: init`);
    t.truthy(service.restart, `${name}: restart`);
  }
  const longRunning = app.filter(([, s]) => s.restart !== 'on-failure').map(([name]) => name).sort();
  t.deepEqual(longRunning, ['core', 'emission', 'gateway', 'simulator']);
  const docker = readDockerfile();
  t.deepEqual(docker.cmd, ['node', 'server.js']);
  t.regex(docker.text, /^USER node$/m);
  t.regex(docker.text, /^HEALTHCHECK .* CMD \["node", "bin\/healthcheck\.js"\]$/m);
  t.notRegex(docker.text.slice(docker.text.lastIndexOf('\nFROM ')), /tsx/, 'no tsx in the runtime stage');
  const ignored = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8').split('\n');
  for (const entry of ['test', 'bench', 'node_modules', 'var', '.git']) t.true(ignored.includes(entry), `.dockerignore: ${entry}`);
});

test('each healthcheck fails when what it probes does not serve', async (t) => {
  const unused = String(await new Promise<number>((done) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => done(port)); }); }));
  const probe = async (service: string, env: Record<string, string>) => {
    const command = compose.services[service]!.healthcheck?.test ?? ['CMD', 'node', 'bin/healthcheck.js'];
    const r = await run.exec(service, command.slice(1), env);
    return [r.code, r.stderr.trim()];
  };
  t.deepEqual(await probe('gateway', { PORT: unused }), [1, 'unhealthy: fetch failed']);
  t.deepEqual(await probe('simulator', { SIMULATOR_PORT: unused }), [1, `unhealthy: connect ECONNREFUSED 127.0.0.1:${unused}`]);
  t.deepEqual(await probe('emission', { SERVICES: 'emission,nenhum' }), [1, `unhealthy: no node of host ${hostname()} with emission,nenhum in namespace '${run.namespace}'`]);
  t.deepEqual(await probe('emission', {}), [0, '']);
});

test('the cluster is the compose file\'s: a gateway, two emission replicas and the core node meet in one namespace', async (t) => {
  const expected = ['gateway', 'emission', 'core'].flatMap((s) => run.pids(s)).map((pid) => `${hostname()}-${pid}`).sort();
  t.is(expected.length, 4);
  // Every node is healthy by its own check; the gateway hears of the last one by its INFO packet, a moment later at most.
  const seen = async () => ((await fetch(`${run.url}/health`).then((r) => r.json()) as any).data.checks.broker.nodes as string[]).filter((n) => expected.includes(n)).sort();
  const deadline = Date.now() + 30_000;
  let nodes = await seen();
  while (nodes.length < expected.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    nodes = await seen();
  }
  t.deepEqual(nodes, expected);
});

test('an NF-e is authorized through the compose layout, with a partner made by the admin command inside the core container', async (t) => {
  const owner = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const partner = await run.exec('core', ['node', 'bin/admin.js', 'create-partner', '--name', 'Parceiro Compose', '--owner-email', owner, '--owner-password', 'Senha-de-teste-123', '--plan', 'SCALE', '--subscription', 'ACTIVE']);
  t.is(partner.code, 0, partner.stderr);
  const { partnerId } = JSON.parse(partner.stdout);
  const key = await run.exec('core', ['node', 'bin/admin.js', 'issue-key', '--partner', partnerId, '--kind', 'live']);
  t.is(key.code, 0, key.stderr);
  const headers = { 'x-api-key': JSON.parse(key.stdout).apiKey as string };

  const request = async (method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}) => {
    const res = await fetch(run.url + path, { method, headers: { ...opts.headers, 'content-type': 'application/json' }, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text), headers: res.headers };
  };
  // The A1 comes from the sandbox CA in the simulator-pki volume, as `docker compose exec simulator node bin/admin.js test-certificate` issues it.
  const simulatorDir = run.hostPath('/app/var/simulator');
  await companyWithA1({ request: request as any, config: { sefaz: { simulatorDir } } }, headers);

  const res = await request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(res.status, 201, `${res.text}\n${run.logs('core')}`);
  t.is(res.body.data.status, 'AUTHORIZED');
  t.regex(res.body.data.protocol, /^\d{15}$/);
  t.regex(res.body.data.accessKey, /^\d{44}$/);
});
