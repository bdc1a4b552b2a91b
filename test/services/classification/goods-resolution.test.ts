import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { createPartnerWithKey } from '../../support/identity.js';
import { aSimplesItem } from '../../support/nfe-factories.js';
import { verifyDfe } from '../../support/verify-dfe.js';
import { companyWithA1, SANDBOX_CSC } from '../../support/e2e.js';
import { assertEnvelope, classEventsOf, DEVICE, FONTE, goodsItem, noteOf, pendentes, productClassRow, RICE, SHIRT } from '../../support/assisted-taxation.js';

/**
 * Assisted taxation of goods over HTTP (issue 17): the gate, the automatic class with the emitted
 * XML checked against the official XSD, CSOSN for Simples issuers, NFC-e, and every refusal code,
 * each followed by the next note taking the next number (nothing was consumed).
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
let simplesId: string;
let lastNumber = 0;

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'auth', 'issuer', 'emission', 'sefaz', 'classification'] }] });
  const partner = await createPartnerWithKey(stack, { plan: 'GROWTH' });
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(stack, headers, { ...SANDBOX_CSC, fiscalBrainEnabled: true }));
  ({ issuerId: simplesId } = await companyWithA1(stack, headers, { ...SANDBOX_CSC, crt: 1, fiscalBrainEnabled: true }));
});
test.after.always(async () => { await stack?.stop(); });

const emit = (body: Record<string, unknown>, path = 'nfe') => stack.request('POST', `/v1/${path}`, { headers, body: { issuerId, ...body } });
const xmlOf = async (path: string, id: string) => (await stack.request('GET', `/v1/${path}/${id}/xml`, { headers })).text;

/** A plain NF-e of the main issuer takes the number right after the last one: the refusal consumed none. */
async function nextNumberIsFree(t: any) {
  const res = await emit(noteOf([goodsItem(SHIRT)], { resolverTributacao: false }));
  t.is(res.status, 201, res.text);
  const previous = lastNumber;
  lastNumber = res.body.data.number;
  if (previous) t.is(lastNumber, previous + 1);
}

test.serial('a shirt (NCM in no annex) gets 000001 with the 2026 rates; the XML passes the official XSD and the signature check', async (t) => {
  await nextNumberIsFree(t);
  const res = await emit(noteOf([goodsItem(SHIRT)]));
  t.is(res.status, 201, res.text);
  lastNumber = res.body.data.number;
  t.deepEqual(res.body.data.tributacaoResolvida, [{
    index: 0, codigo: SHIRT.codigo,
    ibsCbs: { cst: '000', cClassTrib: '000001', nome: 'Situações tributadas integralmente pelo IBS e CBS.', origem: 'ncm_unica', fonte: `${FONTE}; tabela 2026-06-01`, pIBSUF: 0.1, pIBSMun: 0, pCBS: 0.9, pRedIBS: 0, pRedCBS: 0 },
  }]);
  const xml = await xmlOf('nfe', res.body.data.id);
  t.regex(xml, /<IBSCBS><CST>000<\/CST><cClassTrib>000001<\/cClassTrib><gIBSCBS><vBC>100\.00<\/vBC><gIBSUF><pIBSUF>0\.1000<\/pIBSUF><vIBSUF>0\.10<\/vIBSUF><\/gIBSUF><gIBSMun><pIBSMun>0\.0000<\/pIBSMun><vIBSMun>0\.00<\/vIBSMun><\/gIBSMun><vIBS>0\.10<\/vIBS><gCBS><pCBS>0\.9000<\/pCBS><vCBS>0\.90<\/vCBS><\/gCBS><\/gIBSCBS><\/IBSCBS>/);
  const check = verifyDfe({ nfeProc: xml });
  t.true(check.ok, check.output);
  // Memory rule 1: an automatic class is never recorded. The product-class event would be written in
  // the note's creating transaction, so its absence is final once the 201 is back.
  t.deepEqual(await classEventsOf(stack, res.body.data.id), []);
  t.is(await productClassRow(stack, issuerId, SHIRT.codigo), undefined);
  t.deepEqual(await pendentes(stack, headers, issuerId), []);
});

test.serial('a cClassTrib hint of a reduced class gets the full group with pNominal/pRedAliq (gRed) in an NFC-e that passes the XSD', async (t) => {
  const res = await emit(noteOf([goodsItem(RICE, { ibsCbs: { cClassTrib: '200003' } as any })], {}, '65'), 'nfce');
  t.is(res.status, 201, res.text);
  t.like(res.body.data.tributacaoResolvida[0].ibsCbs, { cst: '200', cClassTrib: '200003', origem: 'informada', pIBSUF: 0, pIBSMun: 0, pCBS: 0, pRedIBS: 100, pRedCBS: 100 });
  const xml = await xmlOf('nfce', res.body.data.id);
  t.regex(xml, /<IBSCBS><CST>200<\/CST><cClassTrib>200003<\/cClassTrib><gIBSCBS><vBC>100\.00<\/vBC><gIBSUF><pIBSUF>0\.1000<\/pIBSUF><gRed><pRedAliq>100\.0000<\/pRedAliq><pAliqEfet>0\.0000<\/pAliqEfet><\/gRed><vIBSUF>0\.00<\/vIBSUF>/);
  t.regex(xml, /<gCBS><pCBS>0\.9000<\/pCBS><gRed><pRedAliq>100\.0000<\/pRedAliq><pAliqEfet>0\.0000<\/pAliqEfet><\/gRed><vCBS>0\.00<\/vCBS><\/gCBS>/);
  const check = verifyDfe({ nfeProc: xml });
  t.true(check.ok, check.output);
});

test.serial('a Simples issuer gets CSOSN 102 for a plain sale, and a sent CSOSN is never replaced', async (t) => {
  const bare = aSimplesItem({ ...SHIRT, icms: { origem: 0 } });
  const sentCsosn = aSimplesItem({ ...SHIRT, codigo: 'CAMISETA-M', icms: { origem: 0, csosn: '103' } });
  const res = await stack.request('POST', '/v1/nfe', { headers, body: { issuerId: simplesId, ...noteOf([bare, sentCsosn]) } });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.data.tributacaoResolvida.map((r: any) => [r.index, r.csosn, r.ibsCbs.cClassTrib]), [[0, '102', '000001'], [1, undefined, '000001']]);
  const xml = await xmlOf('nfe', res.body.data.id);
  t.deepEqual([...xml.matchAll(/<CSOSN>(\d+)<\/CSOSN>/g)].map((m) => m[1]), ['102', '103']);
  t.true(verifyDfe({ nfeProc: xml }).ok);
});

test.serial('several candidates answer 422 NCM_MULTICLASSE with the candidates of each unresolved item', async (t) => {
  // Another code than the NFC-e above: that one's class is now in the product class memory.
  const rice = { ...RICE, codigo: 'ARROZ-1KG' };
  const res = await emit(noteOf([goodsItem(SHIRT), goodsItem(rice)]));
  assertEnvelope(t, res, 422, 'NCM_MULTICLASSE', 'NCM com mais de uma classe possível; informe ibsCbs.cClassTrib ou confirme a classe do produto em POST /v1/fiscal/classification/classe.', {
    itensNaoResolvidos: [{
      index: 1, codigo: 'ARROZ-1KG', ncm: RICE.ncm, motivo: 'ncm_multiclasse', mensagem: 'NCM 10063021 com 2 classes possíveis: informe ibsCbs.cClassTrib ou confirme a classe do produto',
      candidatas: [
        { cClassTrib: '000001', nome: 'Situações tributadas integralmente pelo IBS e CBS.', cst: '000', pRedIBS: 0, pRedCBS: 0, fundamentoLegal: 'LC 214/2025', admitidaNFe: true, admitidaNFCe: true },
        { cClassTrib: '200003', nome: 'Vendas de produtos destinados à alimentação humana (Anexo I)', cst: '200', pRedIBS: 100, pRedCBS: 100, fundamentoLegal: 'LC 214/2025, Art. 125 (Anexo I, item 1)', admitidaNFe: true, admitidaNFCe: true },
      ],
    }],
    versaoTabela: '2026-06-01', fonte: FONTE,
  }, '/v1/nfe');
  await nextNumberIsFree(t);
});

test.serial('a class that is not a candidate of the NCM answers 422 CCLASSTRIB_INVALIDO_PARA_NCM', async (t) => {
  const res = await emit(noteOf([goodsItem(SHIRT, { ibsCbs: { cClassTrib: '200003' } as any })]));
  assertEnvelope(t, res, 422, 'CCLASSTRIB_INVALIDO_PARA_NCM', 'cClassTrib inválido para o NCM.', {
    itensNaoResolvidos: [{
      index: 0, codigo: SHIRT.codigo, ncm: SHIRT.ncm, motivo: 'cclasstrib_invalido_para_ncm', mensagem: 'cClassTrib 200003 não é classe candidata do NCM 61091000',
      candidatas: [{ cClassTrib: '000001', nome: 'Situações tributadas integralmente pelo IBS e CBS.', cst: '000', pRedIBS: 0, pRedCBS: 0, fundamentoLegal: 'LC 214/2025', admitidaNFe: true, admitidaNFCe: true }],
    }],
    versaoTabela: '2026-06-01', fonte: FONTE,
  }, '/v1/nfe');
  await nextNumberIsFree(t);
});

test.serial('a class not admitted in the model answers 422 CCLASSTRIB_INADMISSIVEL_NO_MODELO (200005 in an NFC-e)', async (t) => {
  const res = await emit(noteOf([goodsItem(DEVICE, { ibsCbs: { cClassTrib: '200005' } as any })], {}, '65'), 'nfce');
  t.is(res.status, 422, res.text);
  const item = res.body.error.details.itensNaoResolvidos[0];
  assertEnvelope(t, res, 422, 'CCLASSTRIB_INADMISSIVEL_NO_MODELO', 'cClassTrib não admitido neste modelo de documento.', {
    itensNaoResolvidos: [{ index: 0, codigo: DEVICE.codigo, ncm: DEVICE.ncm, motivo: 'cclasstrib_inadmissivel_no_modelo', mensagem: 'cClassTrib 200005 não é admitido na NFC-e (indNFCe = 0)', candidatas: item.candidatas }],
    versaoTabela: '2026-06-01', fonte: FONTE,
  }, '/v1/nfce');
  t.deepEqual(item.candidatas.map((c: any) => c.cClassTrib), ['000001', '200004', '200030']);
  await nextNumberIsFree(t);
});

test.serial('an operation that is not a sale answers 422 NCM_SEM_CLASSE_AUTOMATICA', async (t) => {
  const res = await emit(noteOf([goodsItem(SHIRT, { cfop: '5949' })]));
  assertEnvelope(t, res, 422, 'NCM_SEM_CLASSE_AUTOMATICA', 'Sem classe tributária automática para o item; informe ibsCbs.cClassTrib.', {
    itensNaoResolvidos: [{ index: 0, codigo: SHIRT.codigo, ncm: SHIRT.ncm, motivo: 'ncm_sem_classe_automatica', mensagem: 'CFOP 5949 não é venda: a classe depende da operação; informe em ibsCbs.cClassTrib a classe da operação (ex.: 410001 bonificação, 410003 doação) ou a do produto' }],
    versaoTabela: '2026-06-01', fonte: FONTE,
  }, '/v1/nfe');
  await nextNumberIsFree(t);
});

test.serial('an explicit group whose reduction contradicts its class answers 422 ESPELHO_FISCAL_DIVERGENTE with the workaround', async (t) => {
  const group = { cst: '200', cClassTrib: '200003', ibsUf: { p: 0.04, pNominal: 0.1, pRedAliq: 60 }, ibsMun: { p: 0 }, cbs: { p: 0.36, pNominal: 0.9, pRedAliq: 60 } };
  const res = await emit(noteOf([goodsItem(RICE, { ibsCbs: group as any })]));
  assertEnvelope(t, res, 422, 'ESPELHO_FISCAL_DIVERGENTE', 'Espelho fiscal divergente: o CST ou a redução do IBS/CBS informados não correspondem à classe tributária. Corrija o grupo ibsCbs (ou envie só cClassTrib para o serviço calcular), ou emita sem resolverTributacao com o grupo ibsCbs explícito.', {
    itensNaoResolvidos: [{ index: 0, codigo: RICE.codigo, ncm: RICE.ncm, motivo: 'espelho_fiscal_divergente', mensagem: 'redução informada (ibsUf.pRedAliq 60 %, cbs.pRedAliq 60 %) diverge da classe 200003 (pRedIBS 100 %, pRedCBS 100 %)' }],
    versaoTabela: '2026-06-01', fonte: FONTE,
  }, '/v1/nfe');
  await nextNumberIsFree(t);
  // The workaround of the detail: the same group without resolverTributacao is emitted as sent.
  const asSent = await emit(noteOf([goodsItem(RICE, { ibsCbs: group as any })], { resolverTributacao: false }));
  t.is(asSent.status, 201, asSent.text);
  t.is(asSent.body.data.tributacaoResolvida, undefined);
  lastNumber = asSent.body.data.number;
});

test.serial('the gate: a plan without fiscalBrain or an issuer without fiscalBrainEnabled answers 403 before any number', async (t) => {
  const dev = await createPartnerWithKey(stack, { plan: 'STARTER' });
  const devHeaders = { 'x-api-key': dev.apiKey };
  const { issuerId: devIssuer } = await companyWithA1(stack, devHeaders, { fiscalBrainEnabled: true });
  const byPlan = await stack.request('POST', '/v1/nfe', { headers: devHeaders, body: { issuerId: devIssuer, ...noteOf([goodsItem(SHIRT)]) } });
  const detail = 'Tributação assistida (resolverTributacao) exige plano com fiscalBrain e o emissor com fiscalBrainEnabled.';
  assertEnvelope(t, byPlan, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', detail, { plano: 'STARTER', planoIncluiFiscalBrain: false, fiscalBrainEnabled: true }, '/v1/nfe');
  const first = await stack.request('POST', '/v1/nfe', { headers: devHeaders, body: { issuerId: devIssuer, ...noteOf([goodsItem(SHIRT)], { resolverTributacao: false }) } });
  t.is(first.body.data.number, 1, first.text);
  const pending = await stack.request('GET', `/v1/fiscal/classification/pendentes?issuerId=${devIssuer}`, { headers: devHeaders });
  assertEnvelope(t, pending, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', detail, { plano: 'STARTER', planoIncluiFiscalBrain: false }, '/v1/fiscal/classification/pendentes');

  const off = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { fiscalBrainEnabled: false } });
  t.is(off.status, 200, off.text);
  const byIssuer = await emit(noteOf([goodsItem(SHIRT)]));
  assertEnvelope(t, byIssuer, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', detail, { plano: 'GROWTH', planoIncluiFiscalBrain: true, fiscalBrainEnabled: false }, '/v1/nfe');
  await nextNumberIsFree(t);
  // The module's routes have the same gate: another partner's issuer is 404 first, then the flag.
  const offDetails = { plano: 'GROWTH', planoIncluiFiscalBrain: true, fiscalBrainEnabled: false };
  const offList = await stack.request('GET', `/v1/fiscal/classification/pendentes?issuerId=${issuerId}`, { headers });
  assertEnvelope(t, offList, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', detail, offDetails, '/v1/fiscal/classification/pendentes');
  const offConfirm = await stack.request('POST', '/v1/fiscal/classification/classe', { headers, body: { issuerId, codigo: 'ARROZ-GATE', ncm: RICE.ncm, cClassTrib: '200003' } });
  assertEnvelope(t, offConfirm, 403, 'TRIBUTACAO_ASSISTIDA_INDISPONIVEL', detail, offDetails, '/v1/fiscal/classification/classe');
  t.is(await productClassRow(stack, issuerId, 'ARROZ-GATE'), undefined);
  const foreign = await stack.request('GET', `/v1/fiscal/classification/pendentes?issuerId=${issuerId}`, { headers: devHeaders });
  t.is(foreign.status, 403, 'a plan without fiscalBrain is refused before the issuer is looked at');
  const on = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { fiscalBrainEnabled: null } });
  t.false(on.body.data.fiscalBrainEnabled, 'null keeps the value (API.md PATCH)');
  const blank = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { fiscalBrainEnabled: '' } });
  t.is(blank.status, 400, blank.text);
});

test.serial('the batch resolves with the same rules: a resolved nota completes, a multi-class one fails with the refusal', async (t) => {
  const on = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { fiscalBrainEnabled: true } });
  t.is(on.status, 200, on.text);
  const nota = (items: ReturnType<typeof goodsItem>[]) => ({ issuerId, ...noteOf(items) });
  const res = await stack.request('POST', '/v1/nfe/batch', { headers, body: { notas: [nota([goodsItem(SHIRT)]), nota([goodsItem({ ...RICE, codigo: 'ARROZ-LOTE' })])] } });
  t.is(res.status, 202, res.text);
  let view: any;
  for (let i = 0; i < 200 && view?.status !== 'CONCLUIDO'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    view = (await stack.request('GET', `/v1/nfe/batch/${res.body.data.id}`, { headers })).body.data;
  }
  t.deepEqual(view.items.map((i: any) => i.status), ['COMPLETED', 'FAILED']);
  t.like(view.items[0].resultData, { status: 'AUTHORIZED', number: lastNumber + 1 });
  t.like(view.items[0].resultData.tributacaoResolvida[0].ibsCbs, { cClassTrib: '000001', origem: 'ncm_unica' });
  lastNumber += 1;
  t.like(view.items[1].resultData.error, { type: 'https://errors.test/NCM_MULTICLASSE', status: 422 });
  t.is(view.items[1].resultData.error.details.itensNaoResolvidos[0].codigo, 'ARROZ-LOTE');
  await nextNumberIsFree(t);
});

test.serial('a retry under the same Idempotency-Key answers tributacaoResolvida as the first request did, from the stored document', async (t) => {
  const keyed = { ...headers, 'idempotency-key': `tributacao-${Date.now()}` };
  const body = { issuerId, ...noteOf([goodsItem(SHIRT), goodsItem(RICE, { ibsCbs: { cClassTrib: '200003' } as any })]) };
  const first = await stack.request('POST', '/v1/nfe', { headers: keyed, body });
  t.is(first.status, 201, first.text);
  t.deepEqual(first.body.data.tributacaoResolvida.map((r: any) => [r.index, r.ibsCbs.cClassTrib, r.ibsCbs.origem]), [[0, '000001', 'ncm_unica'], [1, '200003', 'informada']]);
  lastNumber = first.body.data.number;
  const replayed = await stack.request('POST', '/v1/nfe', { headers: keyed, body });
  t.deepEqual(replayed.body.data, first.body.data, 'the gateway\'s replay');
  // What a 5xx release, a stale takeover or the 24-hour purge leaves of the gateway's record: nothing.
  await stack.knex('gateway.idempotency_keys').del();
  const retried = await stack.request('POST', '/v1/nfe', { headers: keyed, body });
  t.is(retried.status, 201, retried.text);
  t.is(retried.headers.get('idempotent-replayed'), null, 'answered by the emission from its binding');
  t.deepEqual(retried.body.data, first.body.data);
  const stored = await stack.knex('emission.documents').where({ id: first.body.data.id }).first('tributacao_resolvida');
  t.deepEqual(stored.tributacao_resolvida, first.body.data.tributacaoResolvida);
  // A note without resolverTributacao stores and answers none.
  const plain = await emit(noteOf([goodsItem(SHIRT)], { resolverTributacao: false }));
  t.is(plain.body.data.tributacaoResolvida, undefined);
  t.is((await stack.knex('emission.documents').where({ id: plain.body.data.id }).first('tributacao_resolvida')).tributacao_resolvida, null);
  lastNumber = plain.body.data.number;
});

test.serial('a bonus (CFOP 5910) emits with the operation class it sends (410001: no gIBSCBS, nothing due), passing the XSD, and records no product class', async (t) => {
  const res = await emit(noteOf([goodsItem(SHIRT, { cfop: '5910', ibsCbs: { cClassTrib: '410001' } as any })]));
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.data.tributacaoResolvida, [{
    index: 0, codigo: SHIRT.codigo,
    ibsCbs: { cst: '410', cClassTrib: '410001', nome: 'Fornecimento de bonificações quando constem no documento fiscal e que não dependam de evento posterior', origem: 'informada', fonte: `${FONTE}; tabela 2026-06-01`, pIBSUF: 0, pIBSMun: 0, pCBS: 0, pRedIBS: 0, pRedCBS: 0 },
  }]);
  lastNumber = res.body.data.number;
  const xml = await xmlOf('nfe', res.body.data.id);
  t.regex(xml, /<IBSCBS><CST>410<\/CST><cClassTrib>410001<\/cClassTrib><\/IBSCBS>/);
  const check = verifyDfe({ nfeProc: xml });
  t.true(check.ok, check.output);
  t.deepEqual(await classEventsOf(stack, res.body.data.id), [], 'the class of the operation is not the product\'s');
});

test.serial('an operation class flagged gTribRegular (550001, export under suspension) answers 422 CCLASSTRIB_EXIGE_GRUPO before numbering', async (t) => {
  const res = await emit(noteOf([goodsItem(SHIRT, { cfop: '5949', ibsCbs: { cClassTrib: '550001' } as any })]));
  assertEnvelope(t, res, 422, 'CCLASSTRIB_EXIGE_GRUPO', 'A classe tributária exige um grupo do IBS/CBS que a API não preenche (tributação regular, crédito presumido, estorno de crédito, monofasia, diferimento); nada foi emitido.', {
    itensNaoResolvidos: [{ index: 0, codigo: SHIRT.codigo, ncm: SHIRT.ncm, motivo: 'cclasstrib_exige_grupo', mensagem: 'cClassTrib 550001 exige gTribRegular, grupo que a API não preenche: informe outra classe' }],
    versaoTabela: '2026-06-01', fonte: FONTE,
  }, '/v1/nfe');
  await nextNumberIsFree(t);
});
