import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { createPartnerWithKey, loginAs, type LoggedIn, type PartnerWithKey } from '../../support/identity.js';
import { base64, TEST_TABLE_FILE, testTableCsv } from '../../support/approximate-tax.js';
import { defaultTableFiles } from '../../../services/classification/default-tables.js';

/** The approximate-tax tables over HTTP: loading (SUPERADMIN), listing and the partners' lookup. */
let stack: Stack;
let admin: LoggedIn;
let partner: PartnerWithKey;

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'auth', 'classification'] }] });
  admin = await loginAs(stack, { role: 'SUPERADMIN' });
  partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
});
test.after.always(async () => { await stack?.stop(); });

const load = (body: unknown, headers: Record<string, string> = admin.headers) => stack.request('POST', '/v1/admin/tributos-aproximados', { headers, body });
/** The whole error envelope of API.md: type by slug, HTTP title, status, detail, and the request's instance. */
function assertError(t: any, res: { status: number; body: any }, status: number, slug: string, detail: string, extra: Record<string, unknown> = {}) {
  t.is(res.status, status);
  const { requestId, timestamp, instance, ...rest } = res.body.error;
  t.deepEqual(rest, { type: `https://errors.test/${slug}`, title: rest.title, status, detail, ...extra });
  t.truthy(requestId);
  t.truthy(timestamp);
  t.regex(instance, /^\/v1\//);
  t.truthy(rest.title);
}

const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

test.serial('POST /v1/admin/tributos-aproximados loads a UF table and loading the same version again replaces it', async (t) => {
  const first = await load({ conteudo: base64(testTableCsv()), nomeArquivo: TEST_TABLE_FILE });
  t.is(first.status, 201, first.text);
  t.like(first.body.data, { uf: 'SP', versao: '99.9.T', fonte: 'TESTE', chave: 'TESTE1', linhas: 4, ignoradas: 1, substituida: false });
  t.regex(first.body.data.vigenciaInicio, /^\d{4}-\d{2}-\d{2}$/);
  const again = await load({ conteudo: base64(testTableCsv()), uf: 'SP' });
  t.is(again.status, 201, again.text);
  t.like(again.body.data, { uf: 'SP', versao: '99.9.T', linhas: 4, substituida: true });
  const list = await stack.request('GET', '/v1/admin/tributos-aproximados?uf=SP', { headers: admin.headers });
  t.is(list.status, 200);
  t.is(list.body.data.length, 1);
  t.like(list.body.data[0], { uf: 'SP', versao: '99.9.T', linhas: 4 });
});

test.serial('GET /v1/fiscal/tributos-aproximados answers the line in force, with the rate for the origin', async (t) => {
  const res = await stack.request('GET', '/v1/fiscal/tributos-aproximados?uf=SP&ncm=61091000&origem=1', { headers: { 'x-api-key': partner.apiKey } });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, {
    uf: 'SP', ncm: '61091000', descricao: 'Camisetas de algodão', nacionalFederal: 13.45, importadosFederal: 18.61, estadual: 18, municipal: 0,
    percentualAplicavel: 36.61, versao: '99.9.T', chave: 'TESTE1', fonte: 'TESTE',
  });
});

test.serial('GET /v1/fiscal/tributos-aproximados answers 404 for an NCM without a line, a UF without a table or a day outside the validity', async (t) => {
  const headers = { 'x-api-key': partner.apiKey };
  for (const query of ['uf=SP&ncm=12345678', 'uf=RJ&ncm=61091000', 'uf=SP&ncm=61091000&data=2001-01-01']) {
    const res = await stack.request('GET', `/v1/fiscal/tributos-aproximados?${query}`, { headers });
    const data = query.match(/data=([\d-]+)/)?.[1] ?? today();
    assertError(t, res, 404, 'NOT_FOUND', 'Nenhuma alíquota aproximada vigente para este NCM nesta UF e data.', { details: { uf: query.slice(3, 5), ncm: query.match(/ncm=(\d+)/)![1], data } });
  }
  const past = await stack.request('GET', `/v1/fiscal/tributos-aproximados?uf=SP&ncm=61091000&data=${today()}`, { headers });
  t.is(past.status, 200);
});

test.serial('a table with bad lines is refused whole with 422 TABELA_TRIBUTOS_INVALIDA naming each line', async (t) => {
  const bad = testTableCsv({ versao: '99.9.X' }).replace('61091000;;0', '6109100;;0').replace(';13.00;17.00;', ';1300;17.00;');
  const res = await load({ conteudo: base64(bad), uf: 'SP' });
  assertError(t, res, 422, 'TABELA_TRIBUTOS_INVALIDA', 'Tabela de tributos aproximados recusada: corrija as linhas indicadas e envie o arquivo inteiro de novo.', {
    details: { linhas: [{ linha: 2, motivo: 'percentual inválido em nacionalFederal' }, { linha: 4, motivo: 'NCM inválido: "6109100"' }] },
  });
  const list = await stack.request('GET', '/v1/admin/tributos-aproximados', { headers: admin.headers });
  t.false(list.body.data.some((v: any) => v.versao === '99.9.X'));
});

test.serial('loading a table is refused to API keys and non-SUPERADMIN users (403), without UF (422) and for content that is not base64 (400)', async (t) => {
  const partnerTry = await load({ conteudo: base64(testTableCsv()), uf: 'SP' }, { 'x-api-key': partner.apiKey });
  assertError(t, partnerTry, 403, 'FORBIDDEN', 'Esta rota exige login (Authorization: Bearer).');
  const nonAdmin = await loginAs(stack, { role: 'ADMIN', partnerId: partner.partnerId });
  const adminOfPartner = await load({ conteudo: base64(testTableCsv()), uf: 'SP' }, nonAdmin.headers);
  assertError(t, adminOfPartner, 403, 'PERMISSAO_INSUFICIENTE', 'Seu perfil não permite esta operação.');
  const noUf = await load({ conteudo: base64(testTableCsv()) });
  assertError(t, noUf, 422, 'TABELA_TRIBUTOS_INVALIDA', 'Tabela de tributos aproximados recusada: corrija as linhas indicadas e envie o arquivo inteiro de novo.', {
    details: { linhas: [{ linha: 0, motivo: 'UF não informada e ausente do nome do arquivo (TabelaIBPTax<UF>…)' }] },
  });
  const notBase64 = await load({ conteudo: 'isto não é base64!', uf: 'SP' });
  assertError(t, notBase64, 400, 'VALIDATION_ERROR', notBase64.body.error.detail, { errors: [{ field: 'conteudo', message: "O campo 'conteudo' deve ser o arquivo da tabela em base64." }] });
});

test.serial('admin table uploads holding U+0000 (base64, past the JSON screening) answer 422 with the line, never a 500', async (t) => {
  const ibpt = await load({ conteudo: base64(testTableCsv({ versao: '99.9.N' }).replace('Camisetas', 'Cami\u0000setas')), uf: 'SP' });
  assertError(t, ibpt, 422, 'TABELA_TRIBUTOS_INVALIDA', 'Tabela de tributos aproximados recusada: corrija as linhas indicadas e envie o arquivo inteiro de novo.', {
    details: { linhas: [{ linha: 4, motivo: 'caractere nulo (U+0000) na linha' }] },
  });
  t.false((await stack.request('GET', '/v1/admin/tributos-aproximados', { headers: admin.headers })).body.data.some((v: any) => v.versao === '99.9.N'));

  const files = defaultTableFiles();
  const anexos = JSON.parse(files.anexos) as Record<string, unknown>[];
  const body = {
    versao: 'com-nulo', cclasstrib: base64(files.cclasstrib), cst: base64(files.cst), aliquotas: base64(files.aliquotas),
    ...(files.aliquotasCbs !== undefined ? { aliquotasCbs: base64(files.aliquotasCbs) } : {}),
    anexos: base64(JSON.stringify([{ ...anexos[0], descricao: 'a\u0000b' }, ...anexos.slice(1)])),
  };
  const classes = await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body });
  assertError(t, classes, 422, 'TABELA_CLASSIFICACAO_INVALIDA', 'Tabelas de classificação IBS/CBS recusadas: corrija os arquivos indicados e envie a versão inteira de novo.', {
    details: { linhas: [{ arquivo: 'anexos', linha: 1, motivo: 'texto com caractere não permitido (U+0000 ou surrogate UTF-16 isolado)' }] },
  });
});
