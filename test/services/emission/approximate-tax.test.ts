import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { createPartnerWithKey } from '../../support/identity.js';
import { aValidNfceBody, aValidNfeBody, anItem, closingPayments } from '../../support/nfe-factories.js';
import { base64, testTableCsv } from '../../support/approximate-tax.js';
import { verifyDfe } from '../../support/verify-dfe.js';
import { companyWithA1, SANDBOX_CSC } from '../../support/e2e.js';

/**
 * Lei 12.741 over the whole product: an issuer with valorAproximadoTributosEnabled emits notes whose
 * vTotTrib comes from the UF table the operator loaded (classification), per item and in total,
 * with the consumer text in infCpl; an item without a rate refuses before numbering.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'auth', 'issuer', 'emission', 'sefaz', 'classification'] }] });
  await stack.nodes[0]!.call('v1.classification.importApproximateTaxTable', { conteudo: base64(testTableCsv()), uf: 'SP' });
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(stack, headers, { ...SANDBOX_CSC, valorAproximadoTributosEnabled: true }));
});
test.after.always(async () => { await stack?.stop(); });

const xmlOf = async (path: string, id: string) => (await stack.request('GET', `/v1/${path}/${id}/xml`, { headers })).text;

test.serial('an NF-e of an issuer with the approximate tax carries vTotTrib per item and in total, and the Lei 12.741 text', async (t) => {
  // Camiseta (61091000) national 100.00 × (13.45 + 18) %; imported (origem 1) 100.00 × (18.61 + 18) %.
  const items = [anItem(), anItem({ codigo: 'SKU-002', icms: { origem: 1, cst: '00', modBC: 3, vBC: 100, pICMS: 18, vICMS: 18 } })];
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ items, pagamentos: closingPayments(items), informacoesComplementares: 'Pedido 42' }) });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'AUTHORIZED');
  const xml = await xmlOf('nfe', res.body.data.id);
  t.deepEqual([...xml.matchAll(/<imposto><vTotTrib>([\d.]+)<\/vTotTrib>/g)].map((m) => m[1]), ['31.45', '36.61']);
  t.regex(xml, /<vNF>[\d.]+<\/vNF><vTotTrib>68\.06<\/vTotTrib><\/ICMSTot>/);
  t.regex(xml, /<infCpl>Pedido 42 Tributos aproximados \(Lei 12\.741\/2012\): R\$ 32,06 federais, R\$ 36,00 estaduais e R\$ 0,00 municipais\. Fonte: TESTE 99\.9\.T \(chave TESTE1\)\.<\/infCpl>/);
  const independent = verifyDfe({ nfeProc: xml });
  t.true(independent.ok, independent.output);
});

test.serial('an NFC-e of the same issuer carries the approximate tax too', async (t) => {
  const res = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(res.status, 201, res.text);
  const xml = await xmlOf('nfce', res.body.data.id);
  t.regex(xml, /<vTotTrib>31\.45<\/vTotTrib><\/ICMSTot>/);
  t.true(verifyDfe({ nfeProc: xml }).ok);
});

test.serial('an item whose NCM has no rate refuses 422 TRIBUTOS_APROXIMADOS_INDISPONIVEIS before numbering', async (t) => {
  const before = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(before.status, 201, before.text);
  const items = [anItem(), anItem({ codigo: 'SKU-009', ncm: '84713012' })];
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ items, pagamentos: closingPayments(items) }) });
  t.is(res.status, 422, res.text);
  const { requestId, timestamp, ...error } = res.body.error;
  t.deepEqual(error, {
    type: 'https://errors.test/TRIBUTOS_APROXIMADOS_INDISPONIVEIS', title: 'Unprocessable Entity', status: 422,
    detail: 'Valor aproximado dos tributos indisponível para itens da nota: carregue a tabela vigente da UF do emissor ou desative valorAproximadoTributosEnabled.',
    details: { itensNaoResolvidos: [{ index: 1, ncm: '84713012', motivo: 'NCM sem alíquota na tabela de tributos aproximados vigente para a UF SP' }] },
    instance: '/v1/nfe',
  });
  t.truthy(requestId && timestamp);
  const after = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(after.status, 201, after.text);
  t.is(after.body.data.number, before.body.data.number + 1);
});

test.serial('turning the approximate tax off emits without vTotTrib', async (t) => {
  const off = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { valorAproximadoTributosEnabled: false } });
  t.is(off.status, 200, off.text);
  const items = [anItem({ ncm: '84713012' })];
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ items, pagamentos: closingPayments(items) }) });
  t.is(res.status, 201, res.text);
  t.notRegex(await xmlOf('nfe', res.body.data.id), /vTotTrib|Lei 12\.741/);
});
