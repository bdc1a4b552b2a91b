import test from 'ava';
import { invoiceContext } from '../support/invoice-events.js';
import { randomUUID } from 'node:crypto';
import type { Stack } from '../support/stack.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota, startEmissionStack } from '../support/emission-world.js';
import { fakePipeline } from '../support/fake-pipeline.js';
import { bindPipeline } from '../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../services/shared/clock.js';

bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;

test.before(async () => {
  stack = await startEmissionStack(world, clock);
});
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => { world.authorizeMode = 'authorize'; world.consultMode = 'lookup'; });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;


async function nextNumber(issuerId: string, model = '55', series = 1): Promise<number> {
  const row = await stack.knex('emission.number_sequences').where({ issuer_id: issuerId, model, series }).first();
  return row ? Number(row.next_number) : 1;
}

async function eventsOf(invoiceId: string) {
  const rows = await stack.knex('emission.outbox').orderBy('created_at');
  return rows.map((r: any) => r.payload).filter((p: any) => p.data.invoiceId === invoiceId);
}

function envelope(status: number, slug: string, detail: string, instance: string, extra: Record<string, unknown> = {}) {
  return { error: { type: `https://errors.test/${slug}`, title: ({ 400: 'Bad Request', 404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Entity' } as any)[status], status, detail, ...extra, instance, requestId: undefined as unknown, timestamp: '2026-11-22T15:00:00.000Z' } };
}

/** Compares a whole error envelope, taking requestId and timestamp from the response (checked for shape). */
function assertEnvelope(t: any, res: any, expected: ReturnType<typeof envelope>) {
  t.is(res.status, expected.error.status);
  t.is(res.body.error.requestId, res.headers.get('x-request-id'));
  t.regex(res.body.error.timestamp, ISO);
  t.deepEqual(res.body, { error: { ...expected.error, requestId: res.body.error.requestId, timestamp: res.body.error.timestamp } });
}

test.serial('POST /v1/nfe authorizes, answers 201 with the invoice, stores nfeProc and writes one invoice.authorized event', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId, { cnpj: '11222333000181' }); // the CNPJ the key below spells
  const res = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.regex(d.accessKey, /^35\d{4}11222333000181550010000000011\d{9}$/);
  t.deepEqual(d, {
    id: d.id, status: 'AUTHORIZED', model: '55', accessKey: d.accessKey, number: 1, series: 1, amount: '21.00',
    protocol: world.authority.get(d.accessKey), issuerId: issuer.id, createdAt: '2026-11-22T15:00:00.000Z',
    links: { self: `/v1/nfe/${d.id}`, xml: `/v1/nfe/${d.id}/xml`, eventos: `/v1/nfe/${d.id}/eventos`, danfe: `/v1/nfe/${d.id}/danfe.pdf`, danfeHtml: `/v1/nfe/${d.id}/danfe.html` },
  });
  t.is(await nextNumber(issuer.id), 2);

  const got = await stack.request('GET', `/v1/nfe/${d.id}`, { headers: p.headers });
  t.is(got.status, 200);
  t.deepEqual(got.body.data, {
    ...d, ambiente: 2, situacao: null, authorizedAt: '2026-11-22T20:00:00.000Z', erros: null, motivo: null, proximaVerificacaoEm: null,
    updatedAt: '2026-11-22T15:00:00.000Z',
  });

  const xml = await stack.request('GET', `/v1/nfe/${d.id}/xml`, { headers: p.headers });
  t.is(xml.status, 200);
  t.regex(xml.headers.get('content-type') ?? '', /application\/xml/);
  t.true(xml.text.startsWith('<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe'));
  t.true(xml.text.includes(world.authorizeCalls.at(-1)!.signedNfeXml));
  t.true(xml.text.includes(`<chNFe>${d.accessKey}</chNFe>`));

  const events = await eventsOf(d.id);
  t.is(events.length, 1);
  t.deepEqual(events[0].data, { invoiceId: d.id, model: '55', number: 1, series: 1, accessKey: d.accessKey, status: 'AUTHORIZED', amount: '21.00', ...invoiceContext(d) });
  t.is(events[0].type, 'invoice.authorized');
  t.is(events[0].partnerId, p.partnerId);

  const usage = await stack.nodes[0]!.call('v1.emission.usage', { partnerId: p.partnerId, period: '2026-11' });
  t.deepEqual(usage, [{ model: '55', environment: 2, keyKind: 'live', billable: true, count: 1 }]);
  // A second authorization adds to the same counter (written in the authorization's statement).
  t.is((await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers })).status, 201);
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.usage', { partnerId: p.partnerId, period: '2026-11' }), [{ model: '55', environment: 2, keyKind: 'live', billable: true, count: 2 }]);

  const other = partner();
  const hidden = await stack.request('GET', `/v1/nfe/${d.id}`, { headers: other.headers });
  assertEnvelope(t, hidden, envelope(404, 'NOT_FOUND', 'Documento não encontrado.', `/v1/nfe/${d.id}`));
});

test.serial('POST /v1/nfce with a test key authorizes model 65 and is counted as not billable', async (t) => {
  const p = partner('test');
  const issuer = world.addIssuer(p.partnerId, { serieNfce: 3 });
  const res = await stack.request('POST', '/v1/nfce', { body: nota({ destCPF: '12345678909' }), headers: p.headers });
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { status: 'AUTHORIZED', model: '65', number: 1, series: 3, amount: '21.00', issuerId: issuer.id });
  t.is(res.body.data.accessKey.slice(20, 22), '65');
  t.is(await nextNumber(issuer.id, '65', 3), 2);
  const usage = await stack.nodes[0]!.call('v1.emission.usage', { partnerId: p.partnerId, period: '2026-11' });
  t.deepEqual(usage, [{ model: '65', environment: 2, keyKind: 'test', billable: false, count: 1 }]);
  // The NF-e path does not serve an NFC-e.
  t.is((await stack.request('GET', `/v1/nfe/${res.body.data.id}`, { headers: p.headers })).status, 404);
  const got = await stack.request('GET', `/v1/nfce/${res.body.data.id}`, { headers: p.headers });
  t.is(got.status, 200);
  t.is(got.body.data.qrCode, `https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode?p=${res.body.data.accessKey}|2|2|1|hash`);
});

test.serial('every refusal before numbering leaves the sequence untouched and stores nothing', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const calls = world.authorizeCalls.length;

  const unknownField = await stack.request('POST', '/v1/nfe', { body: nota({ valorTotal: 1 }), headers: p.headers });
  assertEnvelope(t, unknownField, envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/nfe', {
    errors: [{ field: 'valorTotal', message: unknownField.body.error.errors?.[0]?.message }],
    details: { camposDesconhecidos: [{ campo: 'valorTotal', caminho: 'valorTotal', objeto: '' }] },
  }));
  t.regex(unknownField.body.error.errors[0].message, /Campo desconhecido 'valorTotal'/);

  const cfop = await stack.request('POST', '/v1/nfe', { body: nota({ items: [{ codigo: 'A', descricao: 'A', cfop: '5102', quantidade: 1, valorUnitario: 1 }, { codigo: 'B', descricao: 'B', cfop: '6102', quantidade: 1, valorUnitario: 1 }] }), headers: p.headers });
  assertEnvelope(t, cfop, envelope(422, 'CFOP_IDDEST_DIVERGENTE', 'Itens com CFOP de destinos diferentes.', '/v1/nfe', { details: { cfops: ['5102', '6102'] } }));

  const serie = await stack.request('POST', '/v1/nfe', { body: nota({ serie: 890 }), headers: p.headers });
  assertEnvelope(t, serie, envelope(422, 'SERIE_NAO_PERMITIDA', 'Série 890 reservada: emissores comuns usam 0 a 889.', '/v1/nfe', { details: { serie: 890 } }));

  const xsd = await stack.request('POST', '/v1/nfe', { body: nota({ items: [{ codigo: 'A', descricao: 'FORA DO ESQUEMA', cfop: '5102', quantidade: 1, valorUnitario: 1 }] }), headers: p.headers });
  assertEnvelope(t, xsd, envelope(422, 'XML_FORA_DO_ESQUEMA', 'Documento gerado não passou no esquema oficial; nada foi transmitido.', '/v1/nfe', { details: { motivo: 'xProd reprovado (teste)' } }));

  t.is(await nextNumber(issuer.id), 1);

  const q = partner();
  const noCert = world.addIssuer(q.partnerId, {}, { certificate: false });
  const preflight = await stack.request('POST', '/v1/nfe', { body: nota(), headers: q.headers });
  assertEnvelope(t, preflight, envelope(422, 'CERTIFICADO_AUSENTE', 'Emissor sem certificado A1 válido instalado.', '/v1/nfe'));
  // A malformed body answers 400 even when preflight would refuse too.
  const both = await stack.request('POST', '/v1/nfe', { body: nota({ items: [] }), headers: q.headers });
  t.is(both.status, 400);
  t.is(both.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.is(await nextNumber(noCert.id), 1);

  world.addIssuer(q.partnerId);
  const several = await stack.request('POST', '/v1/nfe', { body: nota(), headers: q.headers });
  assertEnvelope(t, several, envelope(400, 'BAD_REQUEST', 'informe issuerId: sua conta tem 2 emissores', '/v1/nfe'));

  t.is(world.authorizeCalls.length, calls);
  t.is(Number((await stack.knex('emission.documents').whereIn('issuer_id', [issuer.id, noCert.id]).count('* as n'))[0]!.n), 0);
});

test.serial('order of work: selection → validation (400) → rules (422) → preflight (422) → number; refusals consume no number', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId, { csc: null, cscId: null });
  t.is((await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers })).status, 201);
  t.is(await nextNumber(issuer.id), 2);
  world.issuers.get(issuer.id)!.certificate = false; // certificate removed after a first emission
  const calls = world.authorizeCalls.length;
  const twoCfops = { items: [{ codigo: 'A', descricao: 'A', cfop: '5102', quantidade: 1, valorUnitario: 1 }, { codigo: 'B', descricao: 'B', cfop: '6102', quantidade: 1, valorUnitario: 1 }] };

  // A body that breaks a rule answers the rule's 422, not the issuer's CERTIFICADO_AUSENTE.
  const rule = await stack.request('POST', '/v1/nfe', { body: nota(twoCfops), headers: p.headers });
  assertEnvelope(t, rule, envelope(422, 'CFOP_IDDEST_DIVERGENTE', 'Itens com CFOP de destinos diferentes.', '/v1/nfe', { details: { cfops: ['5102', '6102'] } }));
  const serie = await stack.request('POST', '/v1/nfe', { body: nota({ serie: 890 }), headers: p.headers });
  assertEnvelope(t, serie, envelope(422, 'SERIE_NAO_PERMITIDA', 'Série 890 reservada: emissores comuns usam 0 a 889.', '/v1/nfe', { details: { serie: 890 } }));
  // A malformed body answers 400 before both.
  const malformed = await stack.request('POST', '/v1/nfe', { body: nota({ ...twoCfops, valorTotal: 1 }), headers: p.headers });
  t.is(malformed.status, 400);
  t.is(malformed.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  // A valid body answers the preflight.
  const valid = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  assertEnvelope(t, valid, envelope(422, 'CERTIFICADO_AUSENTE', 'Emissor sem certificado A1 válido instalado.', '/v1/nfe'));
  t.is(await nextNumber(issuer.id), 2);

  // NFC-e: the rule first, then CSC_AUSENTE.
  world.issuers.get(issuer.id)!.certificate = true;
  const nfceRule = await stack.request('POST', '/v1/nfce', { body: nota(twoCfops), headers: p.headers });
  assertEnvelope(t, nfceRule, envelope(422, 'CFOP_IDDEST_DIVERGENTE', 'Itens com CFOP de destinos diferentes.', '/v1/nfce', { details: { cfops: ['5102', '6102'] } }));
  const csc = await stack.request('POST', '/v1/nfce', { body: nota(), headers: p.headers });
  assertEnvelope(t, csc, envelope(422, 'CSC_AUSENTE', 'NFC-e exige csc e cscId cadastrados no emissor.', '/v1/nfce'));
  t.is(await nextNumber(issuer.id, '65'), 1);

  // Selection errors come before the body's other violations (size, format): several issuers, and a
  // test key against production. Unknown fields answer before selection (next test).
  world.addIssuer(p.partnerId);
  const several = await stack.request('POST', '/v1/nfe', { body: nota({ serie: -1 }), headers: p.headers });
  assertEnvelope(t, several, envelope(400, 'BAD_REQUEST', 'informe issuerId: sua conta tem 2 emissores', '/v1/nfe'));
  const q = partner('test');
  const production = world.addIssuer(q.partnerId, { ambienteFiscal: 1 }, { certificate: false });
  const forbidden = await stack.request('POST', '/v1/nfe', { body: nota({ ...twoCfops, serie: -1 }), headers: q.headers });
  t.is(forbidden.status, 403);
  t.is(forbidden.body.error.type, 'https://errors.test/CHAVE_TESTE_EMISSOR_PRODUCAO');
  t.is(await nextNumber(production.id), 1);

  t.is(world.authorizeCalls.length, calls);
  t.is(Number((await stack.knex('emission.documents').where({ issuer_id: issuer.id }).count('* as n'))[0]!.n), 1);
});

test.serial('unknown fields answer 400 before the issuer is selected: without issuerId among several issuers, and with a test key on production', async (t) => {
  const p = partner();
  const issuers = [world.addIssuer(p.partnerId), world.addIssuer(p.partnerId), world.addIssuer(p.partnerId)];
  const unknown = (path: string, accepted: string) => envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', path, {
    errors: [
      { field: 'items[0].icms', message: "Campo desconhecido 'icms' em 'items[0]'. Campos aceitos: codigo, descricao, ncm, cfop, unidade, quantidade, valorUnitario." },
      { field: 'valorTotal', message: `Campo desconhecido 'valorTotal'. Campos aceitos: ${accepted}.` },
    ],
    details: { camposDesconhecidos: [{ campo: 'icms', caminho: 'items[0].icms', objeto: 'items[0]' }, { campo: 'valorTotal', caminho: 'valorTotal', objeto: '' }] },
  });
  const body = nota({ valorTotal: 1, items: [{ codigo: 'A', descricao: 'A', cfop: '5102', quantidade: 1, valorUnitario: 1, icms: {} }] });
  assertEnvelope(t, await stack.request('POST', '/v1/nfe', { body, headers: p.headers }), unknown('/v1/nfe', 'issuerId, naturezaOperacao, serie, numero, items, pagamentos'));
  assertEnvelope(t, await stack.request('POST', '/v1/nfce', { body, headers: p.headers }),
    unknown('/v1/nfce', 'issuerId, naturezaOperacao, serie, numero, items, pagamentos, contingencia, justificativaContingencia, destCPF'));
  // The same answer whichever issuer the body names: the refusal is the body's alone.
  assertEnvelope(t, await stack.request('POST', '/v1/nfe', { body: { ...body, issuerId: issuers[1]!.id }, headers: p.headers }), unknown('/v1/nfe', 'issuerId, naturezaOperacao, serie, numero, items, pagamentos'));
  const q = partner('test');
  const production = world.addIssuer(q.partnerId, { ambienteFiscal: 1 });
  assertEnvelope(t, await stack.request('POST', '/v1/nfe', { body: { ...body, issuerId: production.id }, headers: q.headers }), unknown('/v1/nfe', 'issuerId, naturezaOperacao, serie, numero, items, pagamentos'));
  // Batch intake: all-or-nothing, paths under notas[i], nothing queued.
  const batch = await stack.request('POST', '/v1/nfe/batch', { body: { notas: [nota(), nota({ valorTotal: 1 })] }, headers: p.headers });
  assertEnvelope(t, batch, envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/nfe/batch', {
    errors: [{ field: 'notas[1].valorTotal', message: "Campo desconhecido 'notas[1].valorTotal'. Campos aceitos: issuerId, naturezaOperacao, serie, numero, items, pagamentos." }],
    details: { camposDesconhecidos: [{ campo: 'valorTotal', caminho: 'notas[1].valorTotal', objeto: 'notas[1]' }] },
  }));
  t.is(Number((await stack.knex('emission.batches').where({ partner_id: p.partnerId }).count('* as n'))[0]!.n), 0);
  for (const i of [...issuers, production]) t.is(await nextNumber(i.id), 1);
});

test.serial('an issuerId that is not a UUID answers 400 VALIDATION_ERROR naming it, before the issuer lookup; every UUID form is looked up', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const notUuid = (path: string, field = 'issuerId') => envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', path, {
    errors: [{ field, message: `O campo '${field}' deve ser um UUID.` }],
  });
  for (const path of ['/v1/nfe', '/v1/nfce']) {
    assertEnvelope(t, await stack.request('POST', path, { body: nota({ issuerId: 'abc' }), headers: p.headers }), notUuid(path));
    // A UUID with a stray character is no UUID either.
    assertEnvelope(t, await stack.request('POST', path, { body: nota({ issuerId: `${randomUUID()}x` }), headers: p.headers }), notUuid(path));
  }
  const batch = await stack.request('POST', '/v1/nfe/batch', { body: { notas: [nota(), nota({ issuerId: 'abc' })] }, headers: p.headers });
  assertEnvelope(t, batch, notUuid('/v1/nfe/batch', 'notas[1].issuerId'));
  // Well-formed ids of nobody (v4 in upper case, v7, nil, max) are looked up: 404, as another partner's.
  for (const id of [randomUUID().toUpperCase(), '01890a5d-ac96-774b-bcce-b302099a8057', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) {
    assertEnvelope(t, await stack.request('POST', '/v1/nfe', { body: nota({ issuerId: id }), headers: p.headers }), envelope(404, 'NOT_FOUND', 'Emissor não encontrado.', '/v1/nfe'));
  }
});

test.serial('a JSON "__proto__" key is an unknown field like any other, and no prototype takes it', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const body = JSON.parse(`{"__proto__":{"polluted":1},${JSON.stringify(nota()).slice(1)}`);
  for (const path of ['/v1/nfe', '/v1/nfce']) {
    const res = await stack.request('POST', path, { body, headers: p.headers });
    assertEnvelope(t, res, envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', path, {
      errors: [{ field: '__proto__', message: res.body.error.errors?.[0]?.message }],
      details: { camposDesconhecidos: [{ campo: '__proto__', caminho: '__proto__', objeto: '' }] },
    }));
    t.regex(res.body.error.errors[0].message, /^Campo desconhecido '__proto__'\. Campos aceitos: issuerId, /);
  }
  const batch = await stack.request('POST', '/v1/nfe/batch', { body: JSON.parse(`{"__proto__":{"polluted":1},"notas":[${JSON.stringify(nota())}]}`), headers: p.headers });
  assertEnvelope(t, batch, envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/nfe/batch', {
    errors: [{ field: '__proto__', message: "Campo desconhecido '__proto__'. Campos aceitos: notas." }],
    details: { camposDesconhecidos: [{ campo: '__proto__', caminho: '__proto__', objeto: '' }] },
  }));
  t.is(({} as any).polluted, undefined);
  t.is(await nextNumber(issuer.id), 1);
});

test.serial('an incomplete issuer record: the rules answer first, unless the regime (crt) they read is the missing field', async (t) => {
  const twoCfops = { items: [{ codigo: 'A', descricao: 'A', cfop: '5102', quantidade: 1, valorUnitario: 1 }, { codigo: 'B', descricao: 'B', cfop: '6102', quantidade: 1, valorUnitario: 1 }] };
  const p = partner();
  const noIe = world.addIssuer(p.partnerId, {}, { missing: ['ie'] });
  const rule = await stack.request('POST', '/v1/nfe', { body: nota(twoCfops), headers: p.headers });
  assertEnvelope(t, rule, envelope(422, 'CFOP_IDDEST_DIVERGENTE', 'Itens com CFOP de destinos diferentes.', '/v1/nfe', { details: { cfops: ['5102', '6102'] } }));
  const incomplete = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  assertEnvelope(t, incomplete, envelope(422, 'CADASTRO_EMISSOR_INCOMPLETO', 'Cadastro do emissor incompleto: ie.', '/v1/nfe', { details: { camposFaltando: ['ie'] } }));

  const q = partner();
  const noCrt = world.addIssuer(q.partnerId, {}, { missing: ['ie', 'crt'] });
  const regime = await stack.request('POST', '/v1/nfe', { body: nota(twoCfops), headers: q.headers });
  assertEnvelope(t, regime, envelope(422, 'CADASTRO_EMISSOR_INCOMPLETO', 'Cadastro do emissor incompleto: ie, crt.', '/v1/nfe', { details: { camposFaltando: ['ie', 'crt'] } }));
  // Still after strict validation.
  t.is((await stack.request('POST', '/v1/nfe', { body: nota({ valorTotal: 1 }), headers: q.headers })).status, 400);
  t.is(await nextNumber(noIe.id), 1);
  t.is(await nextNumber(noCrt.id), 1);
});

test.serial('a fiscal rejection answers 400 with erros[] verbatim, keeps the transmitted XML and writes invoice.rejected', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  world.authorizeMode = { reject: { cStat: 539, xMotivo: 'Rejeição: Duplicidade de NF-e, com diferença na Chave de Acesso' } };
  const res = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  const invoiceId = res.body.error?.details?.invoiceId;
  assertEnvelope(t, res, envelope(400, 'BAD_REQUEST', '539 - Rejeição: Duplicidade de NF-e, com diferença na Chave de Acesso', '/v1/nfe', {
    erros: [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e, com diferença na Chave de Acesso' }],
    details: { invoiceId, status: 'REJECTED' },
  }));
  const got = await stack.request('GET', `/v1/nfe/${invoiceId}`, { headers: p.headers });
  t.like(got.body.data, { status: 'REJECTED', number: 1, protocol: null, erros: [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e, com diferença na Chave de Acesso' }] });
  const xml = await stack.request('GET', `/v1/nfe/${invoiceId}/xml`, { headers: p.headers });
  t.is(xml.status, 200);
  t.is(xml.text, world.authorizeCalls.at(-1)!.signedNfeXml);
  const events = await eventsOf(invoiceId);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.rejected']);
  t.deepEqual(events[0].data, {
    invoiceId, model: '55', number: 1, series: 1, accessKey: null, status: 'REJECTED', amount: '21.00',
    erros: [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e, com diferença na Chave de Acesso' }],
    ...invoiceContext({ id: invoiceId, model: '55', issuerId: issuer.id, accessKey: got.body.data.accessKey, protocol: null }),
    cStat: 539, xMotivo: 'Rejeição: Duplicidade de NF-e, com diferença na Chave de Acesso',
  });
  t.is(await nextNumber(issuer.id), 2);
  // A rejected number is used: repeating it is 409.
  const again = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 1 }), headers: p.headers });
  assertEnvelope(t, again, envelope(409, 'NUMERO_JA_UTILIZADO', 'Número já utilizado nesta série e modelo.', '/v1/nfe', { details: { numero: 1, serie: 1 } }));
});

test.serial('a timeout after the authority processed the note ends AUTHORIZED through reconciliation with exactly one event', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'timeout-after-processing';
  const res = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.like(d, { status: 'TRANSMITTING', protocol: null, number: 1 });
  t.deepEqual(await eventsOf(d.id), []);

  const created = new Date(d.createdAt).getTime();
  const list = await stack.request('GET', '/v1/nfe?situacao=indeterminada', { headers: p.headers });
  t.is(list.status, 200);
  t.deepEqual(list.body.data, {
    items: [{
      id: d.id, situacao: 'indeterminada', accessKey: d.accessKey, status: 'TRANSMITTING', number: 1, series: 1, issuerId: d.issuerId,
      updatedAt: d.createdAt, proximaVerificacaoEm: new Date(created + 120_000).toISOString(),
      motivo: 'Situação indeterminada (timeout-after-send): sem resposta em 30 s', links: d.links,
    }],
    nextCursor: null,
  });

  const notYet = await stack.request('GET', `/v1/nfe/${d.id}/xml`, { headers: p.headers });
  assertEnvelope(t, notYet, envelope(409, 'CONFLICT', 'XML indisponível para documento em transmissão: há XML autorizado (nfeProc) após a autorização e XML transmitido após uma rejeição.', `/v1/nfe/${d.id}/xml`, { details: { status: 'TRANSMITTING' } }));

  const early = await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  t.deepEqual(early, { claimed: 0, outcomes: [] });
  clock.advance(121_000);
  const round = await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  t.deepEqual(round, { claimed: 1, outcomes: [{ id: d.id, status: 'AUTHORIZED' }] });
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.reconcileDue', {}), { claimed: 0, outcomes: [] });

  const events = await eventsOf(d.id);
  t.deepEqual(events.map((e: any) => e.type), ['invoice.authorized']);
  t.like(events[0].data, { invoiceId: d.id, status: 'AUTHORIZED', accessKey: d.accessKey });
  const got = await stack.request('GET', `/v1/nfe/${d.id}`, { headers: p.headers });
  t.like(got.body.data, { status: 'AUTHORIZED', protocol: world.authority.get(d.accessKey), situacao: null });
  const xml = await stack.request('GET', `/v1/nfe/${d.id}/xml`, { headers: p.headers });
  t.true(xml.text.includes('<nfeProc'));
  t.deepEqual((await stack.request('GET', '/v1/nfe?situacao=indeterminada', { headers: p.headers })).body.data, { items: [], nextCursor: null });
});

test.serial('a failure before sending ends ERROR; reconciliation finds no note at the authority and retransmits the same key', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'fail-before-send';
  const res = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.is(res.status, 201);
  t.like(res.body.data, { status: 'ERROR', protocol: null });
  const key = res.body.data.accessKey;
  world.authorizeMode = 'authorize';
  clock.advance(121_000);
  const round: any = await stack.nodes[0]!.call('v1.emission.reconcileDue', {});
  t.deepEqual(round.outcomes, [{ id: res.body.data.id, status: 'AUTHORIZED' }]);
  const sent = world.authorizeCalls.filter((c) => c.accessKey === key);
  t.is(sent.length, 2);
  t.is(sent[0]!.signedNfeXml, sent[1]!.signedNfeXml);
  t.is((await eventsOf(res.body.data.id)).length, 1);
});

test.serial('resend: the same numero of an open document within 7 days reuses the key and transmits what is sent now; later it is 409', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  world.authorizeMode = 'timeout-before-processing';
  const first = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 77 }), headers: p.headers });
  t.like(first.body.data, { status: 'TRANSMITTING', number: 77 });
  t.is(await nextNumber(issuer.id), 1); // passthrough does not move the sequence

  world.authorizeMode = 'authorize';
  const changed = nota({ numero: 77, items: [{ codigo: 'P1', descricao: 'Produto corrigido', cfop: '5102', quantidade: 3, valorUnitario: 10 }] });
  const resend = await stack.request('POST', '/v1/nfe', { body: changed, headers: p.headers });
  t.is(resend.status, 201, resend.text);
  t.like(resend.body.data, { id: first.body.data.id, accessKey: first.body.data.accessKey, status: 'AUTHORIZED', number: 77, amount: '30.00' });
  t.true(world.authorizeCalls.at(-1)!.signedNfeXml.includes('<xProd>Produto corrigido</xProd>'));
  t.is(Number((await stack.knex('emission.documents').where({ issuer_id: issuer.id }).count('* as n'))[0]!.n), 1);
  t.is((await eventsOf(first.body.data.id)).length, 1);

  const third = await stack.request('POST', '/v1/nfe', { body: changed, headers: p.headers });
  assertEnvelope(t, third, envelope(409, 'NUMERO_JA_UTILIZADO', 'Número já utilizado nesta série e modelo.', '/v1/nfe', { details: { numero: 77, serie: 1 } }));

  // Automatic numbering skips numbers taken by passthrough.
  const a = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 2 }), headers: p.headers });
  const b = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  const c = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.deepEqual([a.body.data.number, b.body.data.number, c.body.data.number], [2, 1, 3]);

  world.authorizeMode = 'fail-before-send';
  const stale = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 88 }), headers: p.headers });
  t.like(stale.body.data, { status: 'ERROR' });
  clock.advance(7 * 24 * 3_600_000 + 1_000);
  world.authorizeMode = 'authorize';
  const late = await stack.request('POST', '/v1/nfe', { body: nota({ numero: 88 }), headers: p.headers });
  t.is(late.status, 409);
  t.is(late.body.error.type, 'https://errors.test/NUMERO_JA_UTILIZADO');
});

test.serial('Idempotency-Key replays a fiscal rejection without transmitting again', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = { reject: { cStat: 696, xMotivo: 'Rejeição: Informar o grupo de responsável técnico' } };
  const headers = { ...p.headers, 'idempotency-key': `k-${randomUUID()}` };
  const first = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(first.status, 400);
  const calls = world.authorizeCalls.length;
  world.authorizeMode = 'authorize';
  const replay = await stack.request('POST', '/v1/nfe', { body: nota(), headers });
  t.is(replay.status, 400);
  t.deepEqual(replay.body, first.body);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.is(world.authorizeCalls.length, calls);
  const doc = await stack.knex('emission.documents').where({ id: first.body.error.details.invoiceId }).first();
  t.is(doc.idempotency_key, headers['idempotency-key']);
});

test.serial('lists paginate by cursor, filter by number and refuse status with situacao', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push((await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers })).body.data.id);
    clock.advance(1_000);
  }
  const page1 = await stack.request('GET', '/v1/nfe?limit=2', { headers: p.headers });
  t.deepEqual(page1.body.data.items.map((i: any) => i.id), [ids[2], ids[1]]);
  t.truthy(page1.body.data.nextCursor);
  const page2 = await stack.request('GET', `/v1/nfe?limit=2&cursor=${page1.body.data.nextCursor}`, { headers: p.headers });
  t.deepEqual(page2.body.data, { items: [page2.body.data.items[0]], nextCursor: null });
  t.is(page2.body.data.items[0].id, ids[0]);
  const byNumber = await stack.request('GET', `/v1/nfe?number=2&issuerId=${issuer.id}&status=AUTHORIZED`, { headers: p.headers });
  t.deepEqual(byNumber.body.data.items.map((i: any) => i.id), [ids[1]]);

  const both = await stack.request('GET', '/v1/nfe?status=AUTHORIZED&situacao=indeterminada', { headers: p.headers });
  assertEnvelope(t, both, envelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/nfe', {
    errors: [{ field: 'situacao', message: "Os filtros 'status' e 'situacao' não podem ser combinados." }],
  }));
  const badCursor = await stack.request('GET', '/v1/nfe?cursor=xyz', { headers: p.headers });
  t.is(badCursor.status, 400);
});

async function waitBatch(headers: Record<string, string>, id: string) {
  for (let i = 0; i < 100; i++) {
    const res = await stack.request('GET', `/v1/nfe/batch/${id}`, { headers });
    if (res.body.data?.status === 'CONCLUIDO') return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('batch did not finish');
}

test.serial('batch: one bad nota refuses the whole batch with notas[i] paths and queues nothing', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  const res = await stack.request('POST', '/v1/nfe/batch', { body: { notas: [nota(), nota({ desconto: 1 })] }, headers: p.headers });
  t.is(res.status, 400);
  t.deepEqual(res.body.error.details, { camposDesconhecidos: [{ campo: 'desconto', caminho: 'notas[1].desconto', objeto: 'notas[1]' }] });
  t.deepEqual(res.body.error.errors.map((e: any) => e.field), ['notas[1].desconto']);
  t.regex(res.body.error.errors[0].message, /^Campo desconhecido 'notas\[1\]\.desconto'\. Campos aceitos: issuerId, naturezaOperacao, serie, numero, items, pagamentos\.$/);
  t.like(res.body.error, { type: 'https://errors.test/VALIDATION_ERROR', status: 400, instance: '/v1/nfe/batch' });
  t.is(Number((await stack.knex('emission.batches').where({ partner_id: p.partnerId }).count('* as n'))[0]!.n), 0);
});

test.serial('batch: items run through the queue; preflight failure and a removed issuer end FAILED without a number', async (t) => {
  const p = partner();
  const ok = world.addIssuer(p.partnerId);
  const noCert = world.addIssuer(p.partnerId, { cnpj: '11444777000161' }, { certificate: false });
  const gone = world.addIssuer(p.partnerId, { cnpj: '19131243000197' });
  world.vanishAfter.set(gone.id, 1); // exists at intake, gone when the item runs
  const res = await stack.request('POST', '/v1/nfe/batch', {
    body: { notas: [nota({ issuerId: ok.id }), nota({ issuerId: noCert.id }), nota({ issuerId: gone.id }), nota({ issuerId: ok.id })] },
    headers: p.headers,
  });
  t.is(res.status, 202, res.text);
  t.like(res.body.data, { total: 4 });
  const done = await waitBatch(p.headers, res.body.data.id);
  const items = done.body.data.items;
  t.deepEqual(done.body.data.contagem, { QUEUED: 0, PROCESSING: 0, COMPLETED: 2, FAILED: 2 });
  t.deepEqual(items.map((i: any) => i.status), ['COMPLETED', 'FAILED', 'FAILED', 'COMPLETED']);
  t.deepEqual(items.filter((i: any) => i.status === 'COMPLETED').map((i: any) => i.resultData.number).sort(), [1, 2]);
  t.like(items[0].resultData, { status: 'AUTHORIZED', issuerId: ok.id });
  t.deepEqual(items[1].resultData, {
    error: {
      type: 'https://errors.test/CERTIFICADO_AUSENTE', title: 'Unprocessable Entity', status: 422, detail: 'Emissor sem certificado A1 válido instalado.',
      instance: `/v1/nfe/batch/${res.body.data.id}`, requestId: res.headers.get('x-request-id'), timestamp: items[1].resultData.error.timestamp,
    },
  });
  t.like(items[2].resultData.error, { type: 'https://errors.test/EMISSOR_INEXISTENTE', status: 404 });
  t.is(await nextNumber(noCert.id), 1);
  t.is(await nextNumber(gone.id), 1);
  const one = await stack.request('GET', `/v1/nfe/batch/${res.body.data.id}/items/${items[0].id}`, { headers: p.headers });
  t.deepEqual(one.body.data, items[0]);
});

test.serial('the sweeper re-sends queued items whose channel message was lost', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  // A batch committed in Postgres whose messages never reached the channel.
  const batchId = randomUUID();
  const at = clock.now();
  await stack.knex('emission.batches').insert({ id: batchId, partner_id: p.partnerId, model: '55', key_kind: 'live', total: 1, request_id: 'r-lost', created_at: at });
  await stack.knex('emission.batch_items').insert({ id: randomUUID(), batch_id: batchId, index: 0, status: 'QUEUED', body: JSON.stringify(nota()), enqueued_at: at, updated_at: at });
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.sweepBatches'), { requeued: 0 });
  clock.advance(61_000);
  t.deepEqual(await stack.nodes[0]!.call('v1.emission.sweepBatches'), { requeued: 1 });
  const done = await waitBatch(p.headers, batchId);
  t.like(done.body.data.items[0], { status: 'COMPLETED', resultData: { status: 'AUTHORIZED', number: 1 } });
});

test.serial('the OpenAPI document lists the emission routes with the list query and the XML download', async (t) => {
  const res = await stack.request('GET', '/api-docs-json');
  t.is(res.status, 200);
  const paths = res.body.paths;
  for (const p of ['/v1/nfe', '/v1/nfce', '/v1/nfe/batch', '/v1/nfe/{id}', '/v1/nfce/{id}', '/v1/nfe/{id}/xml', '/v1/nfce/{id}/xml', '/v1/nfe/batch/{id}', '/v1/nfe/batch/{id}/items/{itemId}']) {
    t.truthy(paths[p], `missing ${p}`);
  }
  t.truthy(paths['/v1/nfe'].post);
  const query = (paths['/v1/nfe'].get.parameters ?? []).map((q: any) => q.name).sort();
  t.deepEqual(query, ['createdFrom', 'createdTo', 'cursor', 'issuerId', 'limit', 'number', 'serie', 'situacao', 'status']);
});

test.serial('uso denegado answers 400 with erros[], keeps the number used and the document DENEGADA', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  world.authorizeMode = { deny: { cStat: 302, xMotivo: 'Uso Denegado: Irregularidade fiscal do destinatário' } };
  const res = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  const invoiceId = res.body.error?.details?.invoiceId;
  assertEnvelope(t, res, envelope(400, 'BAD_REQUEST', '302 - Uso Denegado: Irregularidade fiscal do destinatário', '/v1/nfe', {
    erros: [{ codigo: '302', descricao: 'Uso Denegado: Irregularidade fiscal do destinatário' }],
    details: { invoiceId, status: 'DENEGADA' },
  }));
  const got = await stack.request('GET', `/v1/nfe/${invoiceId}`, { headers: p.headers });
  t.like(got.body.data, { status: 'DENEGADA', number: 1, protocol: world.authority.get(got.body.data.accessKey), situacao: null });
  const events = await eventsOf(invoiceId);
  t.deepEqual(events.map((e: any) => [e.type, e.data.status, e.data.accessKey]), [['invoice.rejected', 'DENEGADA', got.body.data.accessKey]]);
  t.is(await nextNumber(issuer.id), 2);
});
