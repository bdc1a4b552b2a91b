import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadConfig } from '../config.js';

/**
 * Operator commands: `npm run admin -- <command> [--flags]`. Starts a node with only the service that
 * owns the command's action (auth; classification for import-ibpt and import-classificacao), on embedded PGlite by default or
 * DATABASE_URL / REDIS_URL like any node, calls one action, prints its JSON result and exits. Beside
 * a running embedded `npm start` it runs no service and joins that node over loopback instead. A key
 * is printed only by the command that creates it. The same actions are callable from the REPL:
 * `call v1.auth.createPartner --name …`. The commands and flags are in USAGE below.
 *
 * `--password -` (or `--owner-password -`) reads the password from stdin, keeping it out of the
 * shell history and the process list. Exit codes: 0 done, 1 refused by the service (its error as
 * JSON on stderr), 2 bad command line (a one-line message and the usage, never a stack trace).
 */
const USAGE = `usage: npm run admin -- <command> [--flags]
  create-superadmin  --email E --password P --name N
  create-partner     --name N --owner-email E [--owner-name N] [--owner-password P] [--plan DEV|STARTER|GROWTH|SCALE|ENTERPRISE]
                     [--subscription ACTIVE|INACTIVE] [--enterprise-rate-limit R]
                     (without --owner-password the owner gets a 7-day invite by e-mail)
  create-user        --partner ID --email E --password P --name N --role ADMIN|CONTADOR [--owner]
  issue-key          --partner ID --kind live|test [--replace]
  set-plan           --partner ID [--plan P] [--subscription S] [--enterprise-rate-limit R]
  deactivate-partner --partner ID
  test-certificate   --cnpj C --password P [--razao-social R] [--days D]
  import-ibpt        --file TabelaIBPTax<UF><versão>.csv [--uf UF]
                     (a UF's approximate-tax table of Lei 12.741; same as POST /v1/admin/tributos-aproximados)
  import-classificacao [--versao V --cclasstrib F --cst F --anexos F --aliquotas F --aliquotasCbs F]
                     (a version of the assisted-taxation tables, same as POST /v1/admin/classificacao/tabelas;
                     without flags, the version shipped in data/classification; with any file, --versao is required
                     and each missing file is the shipped one)
`;

/** How long a command waits for the running embedded node's services once it joined it. */
const JOIN_TIMEOUT_MS = 15_000;

/** A mistake on the command line: reported in one line with the usage, exit 2. */
class UsageError extends Error {}

/** The flags of one command line; every flag must be read by the command, or it is a typo. */
class Args {
  private readonly flags: Record<string, string | true> = {};
  private readonly read = new Set<string>();

  constructor(argv: string[]) {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (!a.startsWith('--') || a.length < 3) throw new UsageError(`unexpected argument ${a}`);
      const name = a.slice(2);
      if (name in this.flags) throw new UsageError(`--${name} given twice`);
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) this.flags[name] = true;
      else { this.flags[name] = next; i++; }
    }
  }

  async str(name: string, required = true): Promise<string | undefined> {
    this.read.add(name);
    const v = this.flags[name];
    if (v === undefined || v === true) {
      if (required || v === true) throw new UsageError(`--${name} ${v === true ? 'needs a value' : 'is required'}`);
      return undefined;
    }
    return v === '-' ? readStdin() : v;
  }

  async int(name: string): Promise<number | undefined> {
    const v = await this.str(name, false);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number, got ${v}`);
    return Number(v);
  }

  bool(name: string): boolean {
    this.read.add(name);
    const v = this.flags[name];
    if (typeof v === 'string') throw new UsageError(`--${name} takes no value, got ${v}`);
    return v === true;
  }

  /** After the command read its flags: any other flag is refused rather than silently ignored. */
  checkNoneLeft(command: string): void {
    const unknown = Object.keys(this.flags).filter((f) => !this.read.has(f));
    if (unknown.length) throw new UsageError(`unknown flag ${unknown.map((f) => `--${f}`).join(', ')} for ${command}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const COMMANDS: Record<string, (a: Args) => Promise<[string, Record<string, unknown>]>> = {
  'create-superadmin': async (a) => ['v1.auth.createSuperadmin', { email: await a.str('email'), password: await a.str('password'), name: await a.str('name') }],
  'create-partner': async (a) => ['v1.auth.createPartner', {
    name: await a.str('name'), ownerEmail: await a.str('owner-email'), ownerName: await a.str('owner-name', false), ownerPassword: await a.str('owner-password', false),
    plan: await a.str('plan', false), subscription: await a.str('subscription', false), enterpriseRateLimit: await a.int('enterprise-rate-limit'),
  }],
  'create-user': async (a) => ['v1.auth.createUser', {
    partnerId: await a.str('partner'), email: await a.str('email'), password: await a.str('password'), name: await a.str('name'), role: await a.str('role'), owner: a.bool('owner'),
  }],
  'issue-key': async (a) => ['v1.auth.issueKey', { partnerId: await a.str('partner'), kind: await a.str('kind'), replace: a.bool('replace') }],
  'set-plan': async (a) => ['v1.auth.setPlan', {
    partnerId: await a.str('partner'), plan: await a.str('plan', false), subscription: await a.str('subscription', false), enterpriseRateLimit: await a.int('enterprise-rate-limit'),
  }],
  'deactivate-partner': async (a) => ['v1.auth.deactivatePartner', { partnerId: await a.str('partner') }],
  'import-ibpt': async (a) => {
    const file = (await a.str('file'))!;
    const uf = await a.str('uf', false);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new UsageError(`cannot read --file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    return ['v1.classification.importApproximateTaxTable', { conteudo: bytes.toString('base64'), uf, nomeArquivo: basename(file) }];
  },
  'import-classificacao': async (a) => {
    const { defaultTableFiles, DEFAULT_VERSION } = await import('../services/classification/default-tables.js');
    const shipped = defaultTableFiles();
    const files: Record<'cclasstrib' | 'cst' | 'anexos' | 'aliquotas' | 'aliquotasCbs', string> = {
      cclasstrib: shipped.cclasstrib, cst: shipped.cst, anexos: shipped.anexos, aliquotas: shipped.aliquotas, aliquotasCbs: shipped.aliquotasCbs!,
    };
    let given = false;
    for (const name of Object.keys(files) as (keyof typeof files)[]) {
      const file = await a.str(name, false);
      if (file === undefined) continue;
      given = true;
      try {
        files[name] = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read --${name} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }
    const versao = await a.str('versao', given);
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    return ['v1.classification.loadClassTables', { versao: versao ?? DEFAULT_VERSION, cclasstrib: b64(files.cclasstrib), cst: b64(files.cst), anexos: b64(files.anexos), aliquotas: b64(files.aliquotas), aliquotasCbs: b64(files.aliquotasCbs) }];
  },
};

function clean(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Commands that need no broker. `test-certificate` issues an e-CNPJ A1 from the simulator's sandbox
 * CA (trusted by the embedded simulator, never by a real authority) for trying the API locally.
 */
const LOCAL: Record<string, (a: Args) => Promise<() => Record<string, unknown>>> = {
  'test-certificate': async (a) => {
    const cnpj = (await a.str('cnpj'))!;
    const password = (await a.str('password'))!;
    const razaoSocial = await a.str('razao-social', false);
    const days = await a.int('days');
    const { issueSandboxA1 } = await import('../services/sefaz/simulator/sandbox-ca.js');
    return () => {
      const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
      const a1 = issueSandboxA1(config.sefaz.simulatorDir, { cnpj, razaoSocial, password, days });
      return { cnpj: a1.cnpj, notAfter: a1.notAfter, pfxBase64: a1.pfxBase64, password };
    };
  },
};

async function run(command: string | undefined, argv: string[]): Promise<number> {
  const local = command ? LOCAL[command] : undefined;
  const build = command ? COMMANDS[command] : undefined;
  if (!local && !build) throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  const args = new Args(argv);
  if (local) {
    const issue = await local(args);
    args.checkNoneLeft(command!);
    process.stdout.write(`${JSON.stringify(issue(), null, 2)}\n`);
    return 0;
  }
  const [action, params] = await build!(args);
  args.checkNoneLeft(command!);
  // Loaded only for a valid command line, so a typo is answered at once.
  const [{ createNode }, { closeAllKnex }, { closeAllRedis }, { runningEmbeddedNode }] = await Promise.all([
    import('../services/broker.js'), import('../services/shared/database.js'), import('../services/shared/redis.js'), import('../services/shared/embedded-node.js'),
  ]);
  // Logs would interleave with the JSON on stdout: only errors by default.
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
  const service = action.split('.').slice(0, 2).join('.');
  // Beside a running embedded `npm start`, the command joins it over loopback and its services
  // answer: the embedded database belongs to that process.
  const join = await runningEmbeddedNode(config);
  // Otherwise the node runs only the service that owns the action (v1.<service>.<action>). A
  // deactivation also asks emission whether the partner emitted: without a transporter, that answer
  // must come from this process (only that action of emission, see services/emission/activity.service.ts).
  const broker = await createNode({ config, services: join ? [] : [action.split('.')[1]!], ...(join ? { loopback: { join } } : {}) });
  if (action === 'v1.auth.deactivatePartner' && !config.redisUrl && !join) {
    broker.createService((await import('../services/emission/activity.service.js')).EmissionActivityService);
  }
  try {
    await broker.start();
    if (join) await broker.waitForServices([service], JOIN_TIMEOUT_MS);
    const result = await broker.call(action, clean(params));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (err: any) {
    process.stderr.write(`${JSON.stringify({ error: { type: err.type ?? err.name, detail: err.message, data: err.data } }, null, 2)}\n`);
    return 1;
  } finally {
    await broker.stop().catch(() => undefined);
    await Promise.allSettled([closeAllKnex(), closeAllRedis()]);
  }
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  try {
    return await run(command, rest);
  } catch (err) {
    // An operator tool: a sentence, not a stack trace (LOG_LEVEL=debug shows the stack).
    if (err instanceof UsageError) {
      process.stderr.write(`admin: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`admin: ${(err as Error).message}\n`);
    if (process.env.LOG_LEVEL === 'debug') process.stderr.write(`${(err as Error).stack}\n`);
    return 1;
  }
}

process.exit(await main());
