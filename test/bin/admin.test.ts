import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptCertificate } from '../../lib/issuer/certificate.js';
import { startStack, type Stack } from '../support/stack.js';
import { runAdmin, type AdminRun } from '../support/admin-cli.js';
import { createPartnerWithKey, TEST_PASSWORD } from '../support/identity.js';
import { assertError, assertInvalidCredentials } from '../services/auth/helpers.js';
import { TEST_TABLE_FILE, testTableCsv } from '../support/approximate-tax.js';

/**
 * bin/admin.ts run for real, as an operator runs it: a separate process on the database of a
 * running gateway + auth node, whose HTTP API then shows the result. One stack for the file.
 */
let stack: Stack;
let varDir: string;

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'auth'] }] });
  varDir = mkdtempSync(join(tmpdir(), 'fiscal-admin-'));
});
test.after.always(async () => {
  await stack?.stop();
  if (varDir) rmSync(varDir, { recursive: true, force: true });
});

type Run = AdminRun;

/**
 * At most two commands at a time: each starts an auth node, and nodes starting together queue on
 * the migration lock with randomized back-off, which costs more than it saves on two cores.
 */
let running = 0;
const waiting: (() => void)[] = [];
async function admin(args: string[], stdin?: string): Promise<Run> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await spawnAdmin(args, stdin);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** `npm run admin -- ...args` (tsx, as the npm script runs it) against the stack's database. */
function spawnAdmin(args: string[], stdin?: string): Promise<Run> {
  const { REDIS_URL: _r, LOG_LEVEL: _l, ...inherited } = process.env;
  const env = {
    ...inherited,
    NODE_ENV: 'test',
    DATABASE_URL: stack.config.databaseUrl!,
    VAR_DIR: varDir,
    JWT_SECRET: stack.config.jwtSecret,
    ENCRYPTION_KEYS: stack.config.encryptionKeys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(','),
    NAMESPACE: `admin${randomBytes(4).toString('hex')}`,
  };
  return runAdmin(env, args, stdin);
}

const email = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
const login = (e: string, password: string) => stack.request('POST', '/v1/auth/login', { body: { email: e, password } });
const STACK_TRACE = /^\s+at /m;

test('create-superadmin: the superadmin exists and logs in with that password (2FA enrollment first)', async (t) => {
  const e = email('sa');
  const run = await admin(['create-superadmin', '--email', e, '--password', TEST_PASSWORD, '--name', 'Operadora']);
  t.is(run.code, 0, run.stderr);
  t.is(run.stderr, '');
  t.like(run.json, { email: e, name: 'Operadora', role: 'SUPERADMIN', partnerId: null });
  const res = await login(e, TEST_PASSWORD);
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { mfa_required: true, mfa_enrollment_required: true, expires_in: 300 });
  t.truthy(res.body.data.mfa_token);
  assertInvalidCredentials(t, await login(e, 'outra-senha-123'));
});

test('create-partner + issue-key: the printed key authenticates as that partner, on its plan', async (t) => {
  const owner = email('owner');
  const created = await admin(['create-partner', '--name', 'Software House CLI', '--owner-email', owner, '--owner-password', TEST_PASSWORD, '--plan', 'STARTER', '--subscription', 'ACTIVE']);
  t.is(created.code, 0, created.stderr);
  t.like(created.json, { name: 'Software House CLI', plan: 'STARTER', subscriptionStatus: 'ACTIVE', owner: { email: owner, role: 'ADMIN' } });
  const partnerId = created.json.partnerId;

  const key = await admin(['issue-key', '--partner', partnerId, '--kind', 'live']);
  t.is(key.code, 0, key.stderr);
  t.regex(key.json.apiKey, /^ek_live_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  t.like(key.json, { kind: 'live', partnerId });
  const me = await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': key.json.apiKey } });
  t.is(me.status, 200, me.text);
  t.like(me.body.data, { scheme: 'key', partnerId, keyKind: 'live', plan: 'STARTER', subscriptionActive: true, partner: { name: 'Software House CLI' } });
  // The owner's password works too; the owner must enroll 2FA.
  t.like((await login(owner, TEST_PASSWORD)).body.data, { mfa_required: true, mfa_enrollment_required: true });
});

test('create-user --password - reads the password from stdin; the user logs in with it', async (t) => {
  const { partnerId } = await createPartnerWithKey(stack);
  const e = email('contador');
  const password = 'Senha-do-stdin-456';
  const run = await admin(['create-user', '--partner', partnerId, '--email', e, '--password', '-', '--name', 'Contador', '--role', 'CONTADOR'], `${password}\n`);
  t.is(run.code, 0, run.stderr);
  t.like(run.json, { email: e, role: 'CONTADOR', partnerId });
  t.false(run.stdout.includes(password), 'the password is not echoed');
  const res = await login(e, password);
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { token_type: 'Bearer', user: { email: e, role: 'CONTADOR', partnerId } });
});

test('set-plan: the API sees the new plan and subscription', async (t) => {
  const p = await createPartnerWithKey(stack, { plan: 'DEV', subscription: 'INACTIVE', keyKind: 'test' });
  const run = await admin(['set-plan', '--partner', p.partnerId, '--plan', 'GROWTH', '--subscription', 'ACTIVE']);
  t.is(run.code, 0, run.stderr);
  t.like(run.json, { id: p.partnerId, plan: 'GROWTH', subscriptionStatus: 'ACTIVE' });
  const me = await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': p.apiKey } });
  t.is(me.status, 200, me.text);
  t.like(me.body.data, { partnerId: p.partnerId, plan: 'GROWTH', subscriptionActive: true });
});

test('deactivate-partner: its keys are refused from then on', async (t) => {
  const p = await createPartnerWithKey(stack);
  const run = await admin(['deactivate-partner', '--partner', p.partnerId]);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(run.json, { partnerId: p.partnerId, active: false, revokedKeys: 1, endedSessions: 0 });
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': p.apiKey } }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
});

test('deactivate-partner: a partner with a document is refused (the answer of emission\'s own table, asked in the command\'s process)', async (t) => {
  const p = await createPartnerWithKey(stack);
  // The emission schema exists once a command has asked it (the previous test's, or this one's first run).
  await admin(['deactivate-partner', '--partner', (await createPartnerWithKey(stack)).partnerId]);
  await stack.knex('emission.partner_first_documents').insert({ partner_id: p.partnerId, document_id: '00000000-0000-4000-8000-000000000001', created_at: new Date() });
  const run = await admin(['deactivate-partner', '--partner', p.partnerId]);
  t.is(run.code, 1, run.stdout);
  t.like(run.json, { error: { type: 'PARCEIRO_COM_DOCUMENTOS', detail: 'Parceiro que já emitiu documento fiscal não pode ser desativado.' } });
  t.is((await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': p.apiKey } })).status, 200);
});

test('test-certificate: a sandbox A1 for the CNPJ that opens with its password', async (t) => {
  const run = await admin(['test-certificate', '--cnpj', '11222333000181', '--password', 'senha-do-a1', '--days', '30']);
  t.is(run.code, 0, run.stderr);
  t.like(run.json, { cnpj: '11222333000181', password: 'senha-do-a1' });
  const cert = acceptCertificate(Buffer.from(run.json.pfxBase64, 'base64'), 'senha-do-a1', '11222333000181', new Date());
  t.is(cert.cnpj, '11222333000181');
  // The summary keeps whole seconds, as X.509 does.
  t.is(cert.notAfter, new Date(Math.floor(Date.parse(run.json.notAfter) / 1000) * 1000).toISOString());
});

test('bad command lines exit 2 with one clear line and the usage, never a stack trace', async (t) => {
  const partner = randomUUID();
  const cases: [string[], string][] = [
    [[], 'admin: no command given'],
    [['create-admin'], 'admin: unknown command create-admin'],
    [['create-superadmin', '--email', 'x@example.com', '--name', 'X'], 'admin: --password is required'],
    [['create-superadmin', '--email', 'x@example.com', '--password', '--name', 'X'], 'admin: --password needs a value'],
    [['issue-key', '--partner', partner, '--kind', 'live', '--replce'], 'admin: unknown flag --replce for issue-key'],
    [['set-plan', '--partner', partner, '--enterprise-rate-limit', 'muitos'], 'admin: --enterprise-rate-limit must be a whole number, got muitos'],
    [['deactivate-partner', partner], `admin: unexpected argument ${partner}`],
  ];
  const runs = await Promise.all(cases.map(([args]) => admin(args)));
  cases.forEach(([args, message], i) => {
    const run = runs[i]!;
    t.is(run.code, 2, args.join(' '));
    t.is(run.stdout, '');
    t.is(run.stderr.split('\n')[0], message);
    t.regex(run.stderr, /usage: npm run admin -- <command> \[--flags\]\n {2}create-superadmin/);
    t.notRegex(run.stderr, STACK_TRACE);
  });
});

test('refusals by the auth service exit 1 with its error as JSON on stderr, never a stack trace', async (t) => {
  const [unknown, badKind] = await Promise.all([
    admin(['issue-key', '--partner', randomUUID(), '--kind', 'live']),
    admin(['issue-key', '--partner', randomUUID(), '--kind', 'prod']),
  ]);
  for (const run of [unknown, badKind]) {
    t.is(run.code, 1, run.stderr);
    t.is(run.stdout, '');
    t.notRegex(run.stderr, STACK_TRACE);
  }
  t.deepEqual(unknown.json, { error: { type: 'NOT_FOUND', detail: 'Parceiro não encontrado.' } });
  t.deepEqual(badKind.json, { error: { type: 'VALIDATION_ERROR', detail: 'Dados de entrada inválidos.', data: { errors: [{ field: 'kind', message: "O campo 'kind' deve ser um de: live, test." }] } } });
});

test('import-ibpt: loads a UF table from a file, and refuses an unreadable file or a bad table', async (t) => {
  const file = join(varDir, TEST_TABLE_FILE);
  writeFileSync(file, testTableCsv());
  const run = await admin(['import-ibpt', '--file', file]);
  t.is(run.code, 0, run.stderr);
  t.like(run.json, { uf: 'SP', versao: '99.9.T', linhas: 4, ignoradas: 1, substituida: false });

  const missing = await admin(['import-ibpt', '--file', join(varDir, 'nao-existe.csv')]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /^admin: cannot read --file .*nao-existe\.csv: ENOENT\n/);
  t.notRegex(missing.stderr, STACK_TRACE);

  const bad = join(varDir, 'tabela.csv');
  writeFileSync(bad, testTableCsv().replace('61091000;;0', '6109100;;0'));
  const refused = await admin(['import-ibpt', '--file', bad, '--uf', 'RJ']);
  t.is(refused.code, 1, refused.stderr);
  t.deepEqual(refused.json.error.data, { linhas: [{ linha: 4, motivo: 'NCM inválido: "6109100"' }] });
});

test('import-classificacao: loads the shipped version of the assisted-taxation tables, and a file needs --versao', async (t) => {
  const run = await admin(['import-classificacao']);
  t.is(run.code, 0, run.stderr);
  // The classification node had already loaded the shipped version at start (none existed): it is replaced.
  t.like(run.json, { versao: '2026-06-01', classes: 164, anexos: 351, emUso: true, substituida: true, pendentesMarcados: 0 });

  const anexos = join(varDir, 'anexos.json');
  writeFileSync(anexos, '[{"anexo":"I","item":"1","ncm_incluidos":["100630"],"ncm_excecoes":[]}]');
  const noVersion = await admin(['import-classificacao', '--anexos', anexos]);
  t.is(noVersion.code, 2);
  t.regex(noVersion.stderr, /^admin: --versao is required\n/);
  const small = await admin(['import-classificacao', '--anexos', anexos, '--versao', 'so-arroz']);
  t.is(small.code, 0, small.stderr);
  t.like(small.json, { versao: 'so-arroz', anexos: 1, substituida: false });
});
