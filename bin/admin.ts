import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { issueSandboxA1 } from '../services/sefaz/simulator/sandbox-ca.js';
import { loadConfig } from '../config.js';
import { createNode } from '../services/broker.js';
import { closeAllKnex } from '../services/shared/database.js';
import { closeAllRedis } from '../services/shared/redis.js';

/**
 * Operator commands: `npm run admin -- <command> [--flags]`. Starts a node with only the service that
 * owns the command's action (auth; classification for import-ibpt), on embedded PGlite by default or
 * DATABASE_URL / REDIS_URL like any node, calls one action, prints its JSON result and exits. A key is printed only by the command that creates it.
 * The same actions are callable from the REPL: `call v1.auth.createPartner --name …`.
 *
 *   create-superadmin --email E --password P --name N
 *   create-partner    --name N --owner-email E [--owner-name N] [--owner-password P] [--plan DEV|STARTER|GROWTH|SCALE|ENTERPRISE] [--subscription ACTIVE|INACTIVE] [--enterprise-rate-limit R]
 *                     (without --owner-password the owner gets a 7-day invite by e-mail)
 *   create-user       --partner ID --email E --password P --name N --role ADMIN|CONTADOR [--owner]
 *   issue-key         --partner ID --kind live|test [--replace]
 *   set-plan          --partner ID [--plan P] [--subscription S] [--enterprise-rate-limit R]
 *   deactivate-partner --partner ID
 *   import-ibpt       --file TabelaIBPTax<UF><versão>.csv [--uf UF]
 *                     (loads a UF's approximate-tax table of Lei 12.741; same as POST /v1/admin/tributos-aproximados)
 *
 * `--password -` (or `--owner-password -`) reads the password from stdin, keeping it out of the
 * shell history and the process list.
 */
type Flags = Record<string, string | true>;

function parseFlags(argv: string[]): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const name = a.slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) flags[name] = true;
    else { flags[name] = next; i++; }
  }
  return flags;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function str(flags: Flags, name: string, required = true): Promise<string | undefined> {
  const v = flags[name];
  if (v === undefined || v === true) {
    if (required) throw new Error(`--${name} is required`);
    return undefined;
  }
  return v === '-' ? readStdin() : v;
}

function int(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

const COMMANDS: Record<string, (f: Flags) => Promise<[string, Record<string, unknown>]>> = {
  'create-superadmin': async (f) => ['v1.auth.createSuperadmin', { email: await str(f, 'email'), password: await str(f, 'password'), name: await str(f, 'name') }],
  'create-partner': async (f) => ['v1.auth.createPartner', {
    name: await str(f, 'name'), ownerEmail: await str(f, 'owner-email'), ownerName: await str(f, 'owner-name', false), ownerPassword: await str(f, 'owner-password', false),
    plan: await str(f, 'plan', false), subscription: await str(f, 'subscription', false), enterpriseRateLimit: int(await str(f, 'enterprise-rate-limit', false)),
  }],
  'create-user': async (f) => ['v1.auth.createUser', {
    partnerId: await str(f, 'partner'), email: await str(f, 'email'), password: await str(f, 'password'), name: await str(f, 'name'), role: await str(f, 'role'), owner: f.owner === true,
  }],
  'issue-key': async (f) => ['v1.auth.issueKey', { partnerId: await str(f, 'partner'), kind: await str(f, 'kind'), replace: f.replace === true }],
  'set-plan': async (f) => ['v1.auth.setPlan', {
    partnerId: await str(f, 'partner'), plan: await str(f, 'plan', false), subscription: await str(f, 'subscription', false), enterpriseRateLimit: int(await str(f, 'enterprise-rate-limit', false)),
  }],
  'deactivate-partner': async (f) => ['v1.auth.deactivatePartner', { partnerId: await str(f, 'partner') }],
  'import-ibpt': async (f) => {
    const file = (await str(f, 'file'))!;
    return ['v1.classification.importApproximateTaxTable', { conteudo: readFileSync(file).toString('base64'), uf: await str(f, 'uf', false), nomeArquivo: basename(file) }];
  },
};

function clean(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Commands that need no broker. `test-certificate` issues an e-CNPJ A1 from the simulator's sandbox
 * CA (trusted by the embedded simulator, never by a real authority) for trying the API locally.
 */
const LOCAL: Record<string, (f: Flags) => Promise<Record<string, unknown>>> = {
  'test-certificate': async (f) => {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
    const password = (await str(f, 'password'))!;
    const a1 = issueSandboxA1(config.sefaz.simulatorDir, { cnpj: (await str(f, 'cnpj'))!, razaoSocial: await str(f, 'razao-social', false), password, days: int(await str(f, 'days', false)) });
    return { cnpj: a1.cnpj, notAfter: a1.notAfter, pfxBase64: a1.pfxBase64, password };
  },
};

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const local = command ? LOCAL[command] : undefined;
  if (local) {
    process.stdout.write(`${JSON.stringify(await local(parseFlags(rest)), null, 2)}\n`);
    return 0;
  }
  const build = command ? COMMANDS[command] : undefined;
  if (!build) {
    process.stderr.write(`usage: npm run admin -- <${[...Object.keys(COMMANDS), ...Object.keys(LOCAL)].join('|')}> [--flags]\n`);
    return 2;
  }
  const [action, params] = await build(parseFlags(rest));
  // Logs would interleave with the JSON on stdout: only errors by default.
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
  // The node runs only the service that owns the action (v1.<service>.<action>).
  const broker = await createNode({ config, services: [action.split('.')[1]!] });
  await broker.start();
  try {
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

process.exit(await main());
