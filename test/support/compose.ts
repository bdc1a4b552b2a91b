import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { createTestDatabase, TEST_REDIS_URL } from './stack.js';
import { dropRedisKeys, freePort } from './local-resources.js';

/**
 * docker-compose.yml run without Docker (issue 21, item 11): the image is built as the Dockerfile
 * builds it (tsc -p tsconfig.build.json, then the JavaScript beside data/ and node_modules), and
 * every service of the compose file becomes real `node` processes with its command, its environment
 * and its replicas, started in the order its depends_on conditions say (a completed migration, a
 * healthy simulator), each healthy by its own healthcheck command. Nothing is copied from the compose
 * file into this code: what would differ on one host instead of a Docker network is translated, and
 * only that:
 * - container paths (/app/…) point into the build directory, which is every container's /app;
 *   the named volumes are all under its var/, so the simulator-pki volume is shared as in Docker;
 * - postgres and redis are the test servers (a fresh database, a private NAMESPACE and REDIS_PREFIX);
 * - ports are free ports (the simulator's in SIMULATOR_PORT and in `simulator:<port>` URLs, the
 *   gateway's published one in PORT), since containers' ports would collide on one host;
 * - the host name `simulator` resolves to 127.0.0.1 inside the processes (a preload), so its TLS
 *   certificate is still checked against that name, as the API nodes check it in Docker.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INFRASTRUCTURE = new Set(['postgres', 'redis']);
const START_TIMEOUT_MS = 90_000;
const LOG_TAIL = 200;

interface HealthcheckSpec { test?: string[]; disable?: boolean }
interface ComposeService {
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: 'service_started' | 'service_healthy' | 'service_completed_successfully' }>;
  healthcheck?: HealthcheckSpec;
  deploy?: { replicas?: number };
  ports?: string[];
  volumes?: string[];
  init?: boolean;
  restart?: string;
}
export interface ComposeFile { services: Record<string, ComposeService>; volumes?: Record<string, unknown> }

/** The compose file with its YAML merge keys (`<<: *app`) applied, as Docker Compose reads it. */
export function readCompose(): ComposeFile {
  return parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
}

/** The Dockerfile's last stage: its WORKDIR and its exec-form CMD. */
export function readDockerfile(): { workdir: string; cmd: string[]; text: string } {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  const workdir = /^WORKDIR (\S+)$/m.exec(lastStage)?.[1];
  const cmd = /^CMD (\[.*\])$/m.exec(lastStage)?.[1];
  if (!workdir || !cmd) throw new Error('Dockerfile: the last stage needs a WORKDIR and an exec-form CMD');
  return { workdir, cmd: JSON.parse(cmd) as string[], text };
}

/**
 * Each process's stdin is a pipe from the test: if the test process dies, the pipe closes and the
 * child exits (as in test/support/cluster.ts). Unreferenced, so a one-shot command (migrate) still
 * ends by itself when its work is done.
 */
const EXIT_WITH_PARENT = 'data:text/javascript,import{isMainThread}from"node:worker_threads";if(isMainThread)process.stdin.on("end",()=>process.exit(1)).resume().unref()';
/** Docker's network DNS for the compose service names the processes dial. */
const resolveHosts = (names: string[]) => `data:text/javascript,${encodeURIComponent(
  `import dns from "node:dns";const names=${JSON.stringify(names)};const lookup=dns.lookup;`
  + 'dns.lookup=function(host,options,callback){if(!names.includes(host))return lookup.apply(this,arguments);'
  + 'if(typeof options==="function"){callback=options;options={};}'
  + 'const all=typeof options==="object"&&options!==null&&options.all;'
  + 'process.nextTick(()=>all?callback(null,[{address:"127.0.0.1",family:4}]):callback(null,"127.0.0.1",4));};',
)}`;


interface Proc { service: string; child: ChildProcess; tail: string[]; exited: Promise<number | null>; stdout: string; stderr: string }
const running = (p: Proc) => p.child.exitCode === null && p.child.signalCode === null;

export interface ComposeRun {
  /** The gateway's published port, on the host. */
  readonly url: string;
  /** The build directory: every container's /app. */
  readonly app: string;
  /** The test's NAMESPACE, in place of the compose file's. */
  readonly namespace: string;
  /** Host path of a container path (/app/var/simulator → <app>/var/simulator). */
  hostPath(containerPath: string): string;
  /** The processes of a service (replicas), by pid. */
  pids(service: string): number[];
  /** `docker compose exec [-e K=V…] <service> node <script> …args`: one more process with that service's environment. */
  exec(service: string, args: string[], env?: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }>;
  logs(service: string): string;
  stop(): Promise<void>;
}

/** Compiles the sources as the Dockerfile's build stage does into a fresh directory laid out like its /app. */
function buildImage(): Promise<string> {
  const app = join(mkdtempSync(join(tmpdir(), 'fiscal-compose-')), 'app');
  return new Promise((done, fail) => {
    const tsc = spawn(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', app], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    tsc.stdout.on('data', (c) => { out += c; });
    tsc.stderr.on('data', (c) => { out += c; });
    tsc.on('close', (code) => {
      if (code !== 0) return fail(new Error(`tsc -p tsconfig.build.json: exit ${code}\n${out}`));
      // COPY package.json / data; node_modules as installed here (the image has its production part).
      cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
      symlinkSync(join(ROOT, 'data'), join(app, 'data'));
      symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'));
      done(app);
    });
  });
}

export async function composeUp(): Promise<ComposeRun> {
  const compose = readCompose();
  const dockerfile = readDockerfile();
  const app = await buildImage();
  const db = await createTestDatabase();
  const simulatorPort = await freePort();
  const gatewayPort = await freePort();
  const namespace = `compose${randomBytes(4).toString('hex')}`;
  const redisPrefix = `test:${namespace}:`;
  const procs: Proc[] = [];
  const hostPath = (p: string) => (p === dockerfile.workdir || p.startsWith(`${dockerfile.workdir}/`) ? app + p.slice(dockerfile.workdir.length) : p);

  function environment(name: string): Record<string, string> {
    const service = compose.services[name]!;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(service.environment ?? {})) {
      env[k] = hostPath(String(v)).replace(/^(https?:\/\/simulator):8443\b/, `$1:${simulatorPort}`);
    }
    if (env.NAMESPACE === undefined) throw new Error(`${name}: NAMESPACE is not set`);
    Object.assign(env, { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, NAMESPACE: namespace, REDIS_PREFIX: redisPrefix });
    if (env.SIMULATOR_PORT) env.SIMULATOR_PORT = String(simulatorPort);
    if (service.ports?.length) env.PORT = String(gatewayPort);
    // A container's environment is the image's plus the service's, not the test runner's.
    return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: app, ...env };
  }

  /** `node <script> …` as a host process: the compiled script under the two preloads, in /app. */
  function node(service: string, argv: string[], capture = false, extraEnv: Record<string, string> = {}): Proc {
    if (argv[0] !== 'node') throw new Error(`${service}: only node commands are supported, got ${argv.join(' ')}`);
    const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, '--import', resolveHosts(Object.keys(compose.services)), ...argv.slice(1)], {
      cwd: app, env: { ...environment(service), ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    const proc: Proc = { service, child, tail: [], stdout: '', stderr: '', exited: new Promise((done) => child.once('close', (code) => done(code))) };
    const keep = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (capture) proc[stream] += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line) proc.tail.push(line);
      if (proc.tail.length > LOG_TAIL) proc.tail.splice(0, proc.tail.length - LOG_TAIL);
    };
    child.stdout!.on('data', keep('stdout'));
    child.stderr!.on('data', keep('stderr'));
    return proc;
  }

  async function healthy(name: string, proc: Proc): Promise<void> {
    const check = compose.services[name]!.healthcheck;
    const command = check?.disable ? undefined : check?.test ?? ['CMD', ...JSON.parse(/^HEALTHCHECK .* CMD (\[.*\])$/m.exec(dockerfile.text)![1]!)];
    if (!command) return;
    if (command[0] !== 'CMD') throw new Error(`${name}: healthcheck must be exec form (CMD), got ${command[0]}`);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const probe = node(name, command.slice(1));
      if ((await probe.exited) === 0) return;
      if (!running(proc)) throw new Error(`${name} exited (${proc.child.exitCode}) before it was healthy\n${proc.tail.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`${name} never healthy: ${probe.tail.join(' ')}\n${proc.tail.join('\n')}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const started = new Map<string, Promise<Proc[]>>();
  function up(name: string): Promise<Proc[]> {
    let pending = started.get(name);
    if (!pending) {
      pending = (async () => {
        const service = compose.services[name]!;
        for (const [dep, { condition }] of Object.entries(service.depends_on ?? {})) {
          if (INFRASTRUCTURE.has(dep)) continue;
          const deps = await up(dep);
          if (condition === 'service_completed_successfully') {
            for (const d of deps) {
              const code = await d.exited;
              if (code !== 0) throw new Error(`${dep} exited ${code}\n${d.tail.join('\n')}`);
            }
          }
          if (condition === 'service_healthy') await Promise.all(deps.map((d) => healthy(dep, d)));
        }
        const replicas = service.deploy?.replicas ?? 1;
        const mine = Array.from({ length: replicas }, () => node(name, service.command ?? dockerfile.cmd));
        procs.push(...mine);
        return mine;
      })();
      started.set(name, pending);
    }
    return pending;
  }

  const url = `http://127.0.0.1:${gatewayPort}`;
  const run: ComposeRun = {
    url,
    app,
    namespace,
    hostPath,
    pids: (service) => procs.filter((p) => p.service === service).map((p) => p.child.pid!),
    async exec(service, args, env = {}) {
      const proc = node(service, args, true, env);
      const code = await proc.exited;
      return { code, stdout: proc.stdout, stderr: proc.stderr };
    },
    logs: (service) => procs.filter((p) => p.service === service).map((p) => p.tail.join('\n')).join('\n--\n'),
    async stop() {
      const live = procs.filter(running);
      for (const p of live) p.child.kill('SIGTERM');
      await Promise.all(live.map((p) => Promise.race([p.exited, new Promise((r) => setTimeout(r, 10_000))])));
      for (const p of live) if (running(p)) { p.child.kill('SIGKILL'); await p.exited; }
      await db.drop().catch(() => undefined);
      await dropRedisKeys(TEST_REDIS_URL, redisPrefix).catch(() => undefined);
      rmSync(dirname(app), { recursive: true, force: true });
    },
  };

  try {
    const apps = Object.keys(compose.services).filter((s) => !INFRASTRUCTURE.has(s));
    const all = (await Promise.all(apps.map(up))).flat();
    // Long-running services must be healthy; a one-shot (restart: on-failure, like migrate) must have succeeded.
    await Promise.all(all.map(async (p) => {
      if (compose.services[p.service]!.restart === 'on-failure') {
        if ((await p.exited) !== 0) throw new Error(`${p.service} failed\n${p.tail.join('\n')}`);
      } else {
        await healthy(p.service, p);
      }
    }));
  } catch (err) {
    await run.stop();
    throw err;
  }
  return run;
}

