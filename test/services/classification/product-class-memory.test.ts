import test from 'ava';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startStack, type Stack } from '../../support/stack.js';
import { createPartnerWithKey, loginAs, type LoggedIn } from '../../support/identity.js';
import { companyWithA1, SANDBOX_CSC } from '../../support/e2e.js';
import { assertEnvelope, classEventsOf, eventually, FONTE, goodsItem, noteOf, pendentes, productClassRow, RICE, SHIRT } from '../../support/assisted-taxation.js';

/**
 * The product class memory over HTTP (API.md, memory rules 1-5 and the product-class transitions):
 * pendentes and classe across emissions, the accountant's origin, a sent class displacing a
 * confirmed one, and a table reload that turns a stored class `pendente`.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
let admin: LoggedIn;
let contador: LoggedIn;
let partnerId: string;

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'auth', 'issuer', 'emission', 'sefaz', 'classification'] }] });
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  partnerId = partner.partnerId;
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(stack, headers, { ...SANDBOX_CSC, fiscalBrainEnabled: true }));
  admin = await loginAs(stack, { role: 'SUPERADMIN' });
  contador = await loginAs(stack, { role: 'CONTADOR', partnerId });
});
test.after.always(async () => { await stack?.stop(); });

const emit = (body: Record<string, unknown>) => stack.request('POST', '/v1/nfe', { headers, body: { issuerId, ...body } });
const confirm = (body: Record<string, unknown>, h = headers) => stack.request('POST', '/v1/fiscal/classification/classe', { headers: h, body: { issuerId, ...body } });
const pending = () => pendentes(stack, headers, issuerId);
const RICE_CANDIDATES = ['000001', '200003'];

test.serial('a multi-class refusal lists the item as pending; confirming it clears the list and the next emission uses the class', async (t) => {
  const refused = await emit(noteOf([goodsItem(RICE)]));
  t.is(refused.status, 422, refused.text);
  const [item, ...rest] = await pending();
  t.deepEqual(rest, []);
  t.like(item, { codigo: RICE.codigo, ncm: RICE.ncm, cClassTrib: null, origem: 'pendente', motivo: 'multiclasse', cClassTribAnterior: null, deslocouEm: null });
  t.deepEqual(item.candidatas.map((c: any) => c.cClassTrib), RICE_CANDIDATES);

  const ok = await confirm({ codigo: RICE.codigo, cClassTrib: '200003' });
  t.is(ok.status, 200, ok.text);
  t.deepEqual(ok.body.data, {
    codigo: RICE.codigo, ncm: RICE.ncm, cClassTrib: '200003', origem: 'confirmado', motivo: null, cClassTribAnterior: null, deslocouEm: null,
    nome: 'Vendas de produtos destinados à alimentação humana (Anexo I)', versaoTabela: '2026-06-01', fonte: FONTE,
  });
  t.deepEqual(await pending(), []);
  const emitted = await emit(noteOf([goodsItem(RICE)]));
  t.is(emitted.status, 201, emitted.text);
  t.like(emitted.body.data.tributacaoResolvida[0].ibsCbs, { cClassTrib: '200003', origem: 'memoria' });
  // Memory rule 1: the reused class is not written back (no event in the note's transaction), so it stays confirmado.
  t.deepEqual(await classEventsOf(stack, emitted.body.data.id), []);
  t.like(await productClassRow(stack, issuerId, RICE.codigo), { c_class_trib: '200003', origem: 'confirmado', motivo: null });
});

test.serial('a sent class displaces the confirmed one without blocking the note; the item is pending as deslocou_confirmada until confirmed again', async (t) => {
  const sent = await emit(noteOf([goodsItem(RICE, { ibsCbs: { cClassTrib: '000001' } as any })]));
  t.is(sent.status, 201, sent.text);
  t.like(sent.body.data.tributacaoResolvida[0].ibsCbs, { cClassTrib: '000001', origem: 'informada' });
  const [item] = await eventually(async () => { const p = await pending(); return p.length ? p : null; });
  t.like(item, { codigo: RICE.codigo, cClassTrib: '000001', origem: 'informado', motivo: 'deslocou_confirmada', cClassTribAnterior: '200003' });
  t.regex(item.deslocouEm, /^\d{4}-\d{2}-\d{2}T/);
  t.deepEqual(item.candidatas.map((c: any) => c.cClassTrib), RICE_CANDIDATES);
  // The informado class is what the next note reuses (rule 1: reuse is not recorded).
  const reused = await emit(noteOf([goodsItem(RICE)]));
  t.like(reused.body.data.tributacaoResolvida[0].ibsCbs, { cClassTrib: '000001', origem: 'memoria' });
  // Rule 4: confirming clears the marker.
  const again = await confirm({ codigo: RICE.codigo, cClassTrib: '200003' });
  t.like(again.body.data, { origem: 'confirmado', motivo: null, cClassTribAnterior: null, deslocouEm: null });
  t.deepEqual(await pending(), []);
});

test.serial('sending the confirmed class again leaves it confirmed (rule 3), and an accountant confirms as contador', async (t) => {
  const same = await emit(noteOf([goodsItem(RICE, { ibsCbs: { cClassTrib: '200003' } as any })]));
  t.is(same.status, 201, same.text);
  // Had the same class made the record `informado`, this other class would displace nothing.
  const other = await emit(noteOf([goodsItem(RICE, { ibsCbs: { cClassTrib: '000001' } as any })]));
  t.is(other.status, 201, other.text);
  const [item] = await eventually(async () => { const p = await pending(); return p.length ? p : null; });
  t.like(item, { codigo: RICE.codigo, cClassTrib: '000001', origem: 'informado', motivo: 'deslocou_confirmada', cClassTribAnterior: '200003' });
  const byAccountant = await confirm({ codigo: RICE.codigo, cClassTrib: '200003' }, contador.headers);
  t.is(byAccountant.status, 200, byAccountant.text);
  t.like(byAccountant.body.data, { codigo: RICE.codigo, ncm: RICE.ncm, cClassTrib: '200003', origem: 'contador', motivo: null });
  t.deepEqual(await pending(), []);
  const bean = await confirm({ codigo: 'FEIJAO-1KG', ncm: '07133319', cClassTrib: '200003' }, contador.headers);
  t.like(bean.body.data, { codigo: 'FEIJAO-1KG', ncm: '07133319', cClassTrib: '200003', origem: 'contador' });
});

test.serial('a confirmed class the NFC-e does not admit refuses the NFC-e as multi-class but stays confirmed for the NF-e', async (t) => {
  const device = { codigo: 'BISTURI-9', descricao: 'Instrumento cirurgico', ncm: '90189099' };
  t.is((await confirm({ codigo: device.codigo, ncm: device.ncm, cClassTrib: '200005' })).status, 200);
  const nfce = await stack.request('POST', '/v1/nfce', { headers, body: { issuerId, ...noteOf([goodsItem(device)], {}, '65') } });
  t.is(nfce.status, 422, nfce.text);
  t.like(nfce.body.error, { type: 'https://errors.test/NCM_MULTICLASSE' });
  t.deepEqual(nfce.body.error.details.itensNaoResolvidos[0].candidatas.map((c: any) => c.cClassTrib), ['000001', '200004', '200030']);
  t.deepEqual(await pending(), [], 'a product with a confirmed class is not pending');
  const nfe = await emit(noteOf([goodsItem(device)]));
  t.is(nfe.status, 201, nfe.text);
  t.like(nfe.body.data.tributacaoResolvida[0].ibsCbs, { cClassTrib: '200005', origem: 'memoria' });
});

test.serial('classe refuses a class that is not a candidate, a product with no known NCM, and another partner\'s issuer', async (t) => {
  const wrong = await confirm({ codigo: SHIRT.codigo, ncm: SHIRT.ncm, cClassTrib: '200003' });
  assertEnvelope(t, wrong, 422, 'CCLASSTRIB_INVALIDO_PARA_NCM', 'cClassTrib inválido para o NCM.', {
    codigo: SHIRT.codigo, ncm: SHIRT.ncm, cClassTrib: '200003', versaoTabela: '2026-06-01', fonte: FONTE,
    candidatas: [{ cClassTrib: '000001', nome: 'Situações tributadas integralmente pelo IBS e CBS.', cst: '000', pRedIBS: 0, pRedCBS: 0, fundamentoLegal: 'LC 214/2025', admitidaNFe: true, admitidaNFCe: true }],
  }, '/v1/fiscal/classification/classe');
  const unknown = await confirm({ codigo: 'NUNCA-VISTO', cClassTrib: '000001' });
  assertEnvelope(t, unknown, 422, 'PRODUTO_SEM_NCM', 'Produto ainda sem NCM conhecido: informe ncm para confirmar a classe.', { codigo: 'NUNCA-VISTO' }, '/v1/fiscal/classification/classe');
  const other = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const foreign = await confirm({ codigo: RICE.codigo, cClassTrib: '000001' }, { 'x-api-key': other.apiKey });
  t.is(foreign.status, 404, foreign.text);
  t.is(foreign.body.error.type, 'https://errors.test/NOT_FOUND');
  const foreignList = await stack.request('GET', `/v1/fiscal/classification/pendentes?issuerId=${issuerId}`, { headers: { 'x-api-key': other.apiKey } });
  t.is(foreignList.status, 404, foreignList.text);
  const noIssuer = await stack.request('GET', '/v1/fiscal/classification/pendentes', { headers });
  t.is(noIssuer.status, 400, noIssuer.text);
  t.is(noIssuer.body.error.type, 'https://errors.test/VALIDATION_ERROR');
});

test.serial('pendentes is paginated', async (t) => {
  for (const codigo of ['ARROZ-A', 'ARROZ-B', 'ARROZ-C']) {
    const r = await emit(noteOf([goodsItem({ ...RICE, codigo })]));
    t.is(r.status, 422);
  }
  const page = await stack.request('GET', `/v1/fiscal/classification/pendentes?issuerId=${issuerId}&page=2&limit=2`, { headers });
  t.is(page.status, 200, page.text);
  t.like(page.body.data, { total: 3, page: 2, limit: 2, versaoTabela: '2026-06-01', fonte: FONTE });
  t.deepEqual(page.body.data.items.map((i: any) => i.codigo), ['ARROZ-C']);
  for (const codigo of ['ARROZ-A', 'ARROZ-B', 'ARROZ-C']) t.is((await confirm({ codigo, cClassTrib: '000001' })).status, 200);
});

const file = (name: string) => readFileSync(new URL(`../../../data/classification/${name}`, import.meta.url), 'utf8');
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const tables = (versao: string, anexos: string) => ({
  versao, cclasstrib: b64(file('cclasstrib_2026-06-01.csv')), cst: b64(file('cst_ibscbs_2026-06-01.csv')), anexos: b64(anexos), aliquotas: b64(file('aliquotas_ibscbs.csv')), aliquotasCbs: b64(file('aliquotas_cbs_2026-05-12.csv')),
});

test.serial('loading a table version where rice leaves Anexo I turns its stored class pendente (candidatas_alteradas)', async (t) => {
  const anexos = JSON.parse(file('lc214_anexos_ncm.json')) as any[];
  const withoutRice = anexos.map((e) => (e.anexo === 'I' && e.item === '1' ? { ...e, ncm_incluidos: e.ncm_incluidos.filter((p: string) => p !== '100630') } : e));
  const load = await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body: tables('2026-06-01-sem-arroz', JSON.stringify(withoutRice)) });
  t.is(load.status, 201, load.text);
  t.like(load.body.data, { versao: '2026-06-01-sem-arroz', classes: 164, anexos: 351, emUso: true, substituida: false });
  // ARROZ-5KG (confirmado 200003) and FEIJAO-1KG (07133319 is not rice: untouched).
  t.is(load.body.data.pendentesMarcados, 1);
  const [item, ...rest] = await pending();
  t.deepEqual(rest, []);
  t.like(item, { codigo: RICE.codigo, cClassTrib: null, origem: 'pendente', motivo: 'candidatas_alteradas', cClassTribAnterior: '200003' });
  t.deepEqual(item.candidatas.map((c: any) => c.cClassTrib), ['000001']);
  // The rice is now single-class: the next note resolves 000001 by itself.
  const emitted = await emit(noteOf([goodsItem(RICE)]));
  t.like(emitted.body.data.tributacaoResolvida[0].ibsCbs, { cClassTrib: '000001', origem: 'ncm_unica' });

  const list = await stack.request('GET', '/v1/admin/classificacao/tabelas', { headers: admin.headers });
  t.deepEqual(list.body.data.map((v: any) => [v.versao, v.emUso]), [['2026-06-01-sem-arroz', true], ['2026-06-01', false]]);
  const bad = await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body: { ...tables('quebrada', '[{"anexo":"XL","ncm_incluidos":["1x"]}]') } });
  assertEnvelope(t, bad, 422, 'TABELA_CLASSIFICACAO_INVALIDA', 'Tabelas de classificação IBS/CBS recusadas: corrija os arquivos indicados e envie a versão inteira de novo.', {
    linhas: [{ arquivo: 'anexos', linha: 1, motivo: 'ncm_incluidos deve ser uma lista de prefixos de NCM (2-8 dígitos)' }, { arquivo: 'anexos', linha: 1, motivo: 'anexo inválido: "XL"' }],
  }, '/v1/admin/classificacao/tabelas');
  const byPartner = await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers, body: tables('x', '[]') });
  t.is(byPartner.status, 403, byPartner.text);
});

test.serial('a class whose group flag the API cannot fill is refused by classe (CCLASSTRIB_EXIGE_GRUPO) and never emitted', async (t) => {
  // A version where rice's 200003 demands gCredPresOper (its ind_gCredPresOper set to 1).
  const csv = file('cclasstrib_2026-06-01.csv');
  const at = csv.indexOf(',200003,');
  const flags = ',100,100,0,0,0,0,0,0,0,0,';
  const flagged = csv.slice(0, at) + csv.slice(at).replace(flags, ',100,100,0,1,0,0,0,0,0,0,');
  t.not(flagged, csv);
  const load = await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body: { ...tables('credito-presumido', file('lc214_anexos_ncm.json')), cclasstrib: b64(flagged) } });
  t.is(load.status, 201, load.text);
  const refused = await confirm({ codigo: 'ARROZ-CP', ncm: RICE.ncm, cClassTrib: '200003' });
  assertEnvelope(t, refused, 422, 'CCLASSTRIB_EXIGE_GRUPO', 'A classe tributária exige um grupo do IBS/CBS que a API não preenche (tributação regular, crédito presumido, estorno de crédito, monofasia, diferimento); nada foi emitido.', {
    codigo: 'ARROZ-CP', ncm: RICE.ncm, cClassTrib: '200003', grupos: ['gCredPresOper'], versaoTabela: 'credito-presumido',
  }, '/v1/fiscal/classification/classe');
  t.is(await productClassRow(stack, issuerId, 'ARROZ-CP'), undefined);
  const sent = await emit(noteOf([goodsItem({ ...RICE, codigo: 'ARROZ-CP' }, { ibsCbs: { cClassTrib: '200003' } as any })]));
  t.is(sent.status, 422, sent.text);
  t.like(sent.body.error.details.itensNaoResolvidos[0], { motivo: 'cclasstrib_exige_grupo', mensagem: 'cClassTrib 200003 exige gCredPresOper, grupo que a API não preenche: informe outra classe' });
  t.is((await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body: tables('2026-06-01', file('lc214_anexos_ncm.json')) })).status, 201);
});

test.serial('a table version without the year\'s rates refuses with 422 TRIBUTACAO_NAO_RESOLVIDA before numbering', async (t) => {
  const before = await emit(noteOf([goodsItem(SHIRT)], { resolverTributacao: false }));
  t.is(before.status, 201, before.text);
  const only2025 = { ...tables('so-2025', file('lc214_anexos_ncm.json')), aliquotas: b64('ano,cbs,ibsUf,ibsMun,fonte\n2025,0.009,0.001,0,teste\n') };
  t.is((await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body: only2025 })).status, 201);
  const year = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 4);
  const res = await emit(noteOf([goodsItem(SHIRT)]));
  assertEnvelope(t, res, 422, 'TRIBUTACAO_NAO_RESOLVIDA', 'Tributação assistida não resolveu todos os campos.', {
    itensNaoResolvidos: [{ index: 0, codigo: SHIRT.codigo, ncm: SHIRT.ncm, motivo: 'aliquotas_indisponiveis', mensagem: `alíquotas do IBS/CBS de ${year} não carregadas (tabela so-2025)` }],
    versaoTabela: 'so-2025', fonte: FONTE,
  }, '/v1/nfe');
  const after = await emit(noteOf([goodsItem(SHIRT)], { resolverTributacao: false }));
  t.is(after.body.data.number, before.body.data.number + 1);
  t.is((await stack.request('POST', '/v1/admin/classificacao/tabelas', { headers: admin.headers, body: tables('2026-06-01', file('lc214_anexos_ncm.json')) })).status, 201);
});

test.serial('/api-docs-json documents the classification routes with request and response schemas, and tributacaoResolvida in the emission answer', async (t) => {
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  const result = await new Validator().validate(doc);
  t.true(result.valid, JSON.stringify(result.errors)?.slice(0, 2000));
  const pendentesOp = doc.paths['/v1/fiscal/classification/pendentes'].get;
  t.deepEqual(pendentesOp.parameters.map((p: any) => [p.name, p.in]), [['issuerId', 'query'], ['page', 'query'], ['limit', 'query']]);
  t.truthy(pendentesOp.responses['200'].content['application/json'].schema);
  const classe = doc.paths['/v1/fiscal/classification/classe'].post;
  t.deepEqual(Object.keys(classe.requestBody.content['application/json'].schema.properties), ['issuerId', 'codigo', 'cClassTrib', 'ncm']);
  t.truthy(classe.responses['200'].content['application/json'].schema);
  const load = doc.paths['/v1/admin/classificacao/tabelas'].post;
  t.deepEqual(Object.keys(load.requestBody.content['application/json'].schema.properties), ['versao', 'cclasstrib', 'cst', 'anexos', 'aliquotas', 'aliquotasCbs']);
  t.truthy(load.responses['201']);
  t.truthy(doc.paths['/v1/admin/classificacao/tabelas'].get.responses['200']);
  // The emission answer is the reusable Documento schema (issue 21, item 4).
  t.deepEqual(doc.paths['/v1/nfe'].post.responses['201'].content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Documento' });
  t.regex(JSON.stringify(doc.components.schemas.Documento), /tributacaoResolvida/);
});
