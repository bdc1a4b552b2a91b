import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { aCnpj, aCompleteIssuer, as, SUPERADMIN } from './support.js';
import { createA1, createCa } from '../../support/certificates.js';

let stack: Stack;
const P1 = as('p1');
const P2 = as('p2');

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
});
test.after.always(async () => { await stack?.stop(); });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function errorEnvelope(status: number, slug: string, detail: string, instance: string, extra: Record<string, unknown> = {}) {
  return (body: any) => ({
    error: {
      type: `https://errors.test/${slug}`, title: body.error.title, status, detail, ...extra,
      instance, requestId: body.error.requestId, timestamp: body.error.timestamp,
    },
  });
}

test.serial('POST /v1/companies creates an issuer in homologation with defaults and returns the whole resource', async (t) => {
  const body = aCompleteIssuer();
  const res = await stack.request('POST', '/v1/companies', { body, headers: P1 });
  t.is(res.status, 201);
  t.regex(res.body.data.issuerId, UUID);
  t.regex(res.body.meta.timestamp, ISO);
  t.deepEqual(res.body, {
    data: {
      issuerId: res.body.data.issuerId, cnpj: body.cnpj, razaoSocial: 'EMPRESA TESTE LTDA', nomeFantasia: 'TESTE', ie: '110042490114',
      inscricaoMunicipal: null, cnae: null, crt: 1,
      endereco: { logradouro: 'Rua das Flores', numero: '100', complemento: null, bairro: 'Centro', codigoMunicipio: '3550308', municipio: 'São Paulo', uf: 'SP', cep: '01001000', telefone: '1133334444' },
      ambienteFiscal: 2, sandbox: false, serieNfe: 1, serieNfce: 1, serieNfse: 1, csc: null, cscId: null,
      servicoPadraoLc116: null, cTribNacPadrao: null, pTotTribSNPadrao: null, pTotTribSNCompetencia: null,
      codigoNbsPadrao: null, tribIssqnPadrao: null, indDestPadrao: null, regEspTribPadrao: null, email: null,
      fiscalBrainEnabled: false, valorAproximadoTributosEnabled: false, sefazUrl: null, formatoDanfe: 1, certificado: null,
      createdAt: res.body.data.createdAt, updatedAt: res.body.data.updatedAt,
    },
    meta: { requestId: res.headers.get('x-request-id'), timestamp: res.body.meta.timestamp },
  });

  const got = await stack.request('GET', `/v1/companies/${res.body.data.issuerId}`, { headers: P1 });
  t.is(got.status, 200);
  t.deepEqual(got.body.data, res.body.data);
});

test.serial('POST /v1/companies accepts every spec field and an alphanumeric CNPJ', async (t) => {
  const body = aCompleteIssuer({
    cnpj: aCnpj(true), csc: 'A1b2C3d4-E5f6!', cscId: '000001', servicoPadraoLc116: '1.07', cTribNacPadrao: '010701',
    pTotTribSNPadrao: 4.5, pTotTribSNCompetencia: '2026-09', fiscalBrainEnabled: true, valorAproximadoTributosEnabled: true,
    sandbox: true, ambienteFiscal: 2, crt: 4, serieNfe: 3, serieNfce: 889, inscricaoMunicipal: 'IM123', cnae: '6201501', sefazUrl: 'http://127.0.0.1:9/sefaz',
  });
  const res = await stack.request('POST', '/v1/companies', { body, headers: P1 });
  t.is(res.status, 201, JSON.stringify(res.body));
  const d = res.body.data;
  t.like(d, { cnpj: body.cnpj, csc: 'A1...6!', cscId: '000001', servicoPadraoLc116: '1.07', cTribNacPadrao: '010701', pTotTribSNPadrao: 4.5, pTotTribSNCompetencia: '2026-09', fiscalBrainEnabled: true, valorAproximadoTributosEnabled: true, sandbox: true, ambienteFiscal: 2, crt: 4, serieNfe: 3, serieNfce: 889, inscricaoMunicipal: 'IM123', cnae: '6201501', sefazUrl: 'http://127.0.0.1:9/sefaz' });
});

test.serial('GET /v1/companies lists only the caller partner issuers; another partner gets 404 on GET and PATCH', async (t) => {
  const mine = (await stack.request('POST', '/v1/companies', { body: aCompleteIssuer(), headers: as('p-list') })).body.data;
  await stack.request('POST', '/v1/companies', { body: aCompleteIssuer(), headers: as('p-other') });
  const list = await stack.request('GET', '/v1/companies', { headers: as('p-list') });
  t.is(list.status, 200);
  t.deepEqual(list.body.data, { items: [mine], nextCursor: null });

  for (const [method, body] of [['GET', undefined], ['PATCH', { razaoSocial: 'OUTRA' }]] as const) {
    const res = await stack.request(method, `/v1/companies/${mine.issuerId}`, { body, headers: as('p-other') });
    t.is(res.status, 404);
    t.deepEqual(res.body, errorEnvelope(404, 'NOT_FOUND', 'Emissor não encontrado.', `/v1/companies/${mine.issuerId}`)(res.body));
  }
  const unknown = await stack.request('GET', '/v1/companies/00000000-0000-4000-8000-000000000000', { headers: as('p-list') });
  t.is(unknown.status, 404);
  t.is(unknown.body.error.detail, 'Emissor não encontrado.');
});

test.serial('duplicate CNPJ answers 409 CNPJ_CONFLICT with the identical envelope for the owner and for another partner', async (t) => {
  const body = aCompleteIssuer();
  t.is((await stack.request('POST', '/v1/companies', { body, headers: P1 })).status, 201);
  const mine = await stack.request('POST', '/v1/companies', { body, headers: P1 });
  const other = await stack.request('POST', '/v1/companies', { body: { ...body, razaoSocial: 'OUTRA LTDA' }, headers: P2 });
  for (const res of [mine, other]) {
    t.is(res.status, 409);
    t.deepEqual(res.body, errorEnvelope(409, 'CNPJ_CONFLICT', 'CNPJ já cadastrado. Para assumir este CNPJ, solicite transferência.', '/v1/companies')(res.body));
  }
  const strip = (b: any) => ({ ...b.error, requestId: '', timestamp: '' });
  t.deepEqual(strip(mine.body), strip(other.body));
});

test.serial('concurrent creations of one CNPJ: exactly one 201, the rest 409 CNPJ_CONFLICT', async (t) => {
  const body = aCompleteIssuer();
  const results = await Promise.all(['pa', 'pb', 'pc', 'pd'].map((p) => stack.request('POST', '/v1/companies', { body, headers: as(p) })));
  t.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409]);
  t.true(results.filter((r) => r.status === 409).every((r) => r.body.error.type === 'https://errors.test/CNPJ_CONFLICT'));
});

test.serial('POST /v1/companies refuses bad values with 400 errors[] naming each field', async (t) => {
  const res = await stack.request('POST', '/v1/companies', {
    headers: P1,
    body: aCompleteIssuer({ cnpj: '11222333000100', ie: 'isento', cscId: '1234567', csc: 'com espaço', crt: 5, pTotTribSNCompetencia: '2026-13', endereco: { codigoMunicipio: '3550308', uf: 'RJ' } }),
  });
  t.is(res.status, 400);
  t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.deepEqual(res.body.error.errors.map((e: any) => e.field).sort(), ['crt', 'csc', 'cscId', 'ie', 'pTotTribSNCompetencia'].sort());

  const digits = await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer({ cnpj: '11222333000100', endereco: { codigoMunicipio: '3550308', uf: 'RJ' } }) });
  t.is(digits.status, 400);
  t.deepEqual(digits.body, errorEnvelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/companies', {
    errors: [
      { field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' },
      { field: 'endereco.codigoMunicipio', message: 'Município 3550308 (São Paulo) pertence a SP, não a RJ.' },
    ],
  })(digits.body));

  const unknownIbge = await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer({ endereco: { codigoMunicipio: '3599999', uf: 'SP' } }) });
  t.deepEqual(unknownIbge.body.error.errors, [{ field: 'endereco.codigoMunicipio', message: 'Código IBGE 3599999 não existe na tabela de municípios.' }]);

  const unknownKey = await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer({ regime: 'simples' }) });
  t.is(unknownKey.status, 400);
  t.deepEqual(unknownKey.body.error.details, { camposDesconhecidos: [{ campo: 'regime', caminho: 'regime', objeto: '' }] });

  const production = await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer({ ambienteFiscal: 1 }) });
  t.is(production.status, 400);
  t.deepEqual(production.body.error.errors.map((e: any) => e.field), ['ambienteFiscal']);
});

test.serial('PATCH null/empty matrix: absent keeps, null keeps, "" clears, a value replaces (also inside endereco)', async (t) => {
  const created = (await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer({ csc: 'CSC123', cscId: '1', inscricaoMunicipal: 'IM9' }) })).body.data;
  const path = `/v1/companies/${created.issuerId}`;
  const res = await stack.request('PATCH', path, {
    headers: P1,
    body: { nomeFantasia: null, ie: '', csc: '', cscId: null, inscricaoMunicipal: 'IM10', endereco: { numero: '', bairro: null, complemento: 'Sala 2' } },
  });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.deepEqual(res.body.data, {
    ...created,
    ie: null, csc: null, inscricaoMunicipal: 'IM10',
    endereco: { ...created.endereco, numero: null, complemento: 'Sala 2' },
    updatedAt: res.body.data.updatedAt,
  });
  t.deepEqual((await stack.request('GET', path, { headers: P1 })).body.data, res.body.data);

  const noop = await stack.request('PATCH', path, { headers: P1, body: {} });
  t.deepEqual({ ...noop.body.data, updatedAt: '' }, { ...res.body.data, updatedAt: '' });

  const clearAddress = await stack.request('PATCH', path, { headers: P1, body: { endereco: '' } });
  t.deepEqual(clearAddress.body.data.endereco, { logradouro: null, numero: null, complemento: null, bairro: null, codigoMunicipio: null, municipio: null, uf: null, cep: null, telefone: null });

  const newPlace = await stack.request('PATCH', path, { headers: P1, body: { endereco: { codigoMunicipio: '3304557', uf: 'RJ' } } });
  t.like(newPlace.body.data.endereco, { codigoMunicipio: '3304557', uf: 'RJ', municipio: 'Rio de Janeiro' });
});

test.serial('PATCH refuses "" on identity fields and validates non-null values (400 errors[])', async (t) => {
  const created = (await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer() })).body.data;
  const path = `/v1/companies/${created.issuerId}`;
  const res = await stack.request('PATCH', path, { headers: P1, body: { cnpj: '', razaoSocial: '', cscId: 'abc', csc: 'a b', ie: 'Isento', serieNfe: 900, endereco: { cep: '123' } } });
  t.is(res.status, 400);
  t.deepEqual(res.body.error.errors.map((e: any) => e.field).sort(), ['cnpj', 'cscId', 'csc', 'endereco.cep', 'ie', 'razaoSocial', 'serieNfe'].sort());
  t.true(res.body.error.errors.some((e: any) => e.field === 'cnpj' && e.message === `O campo 'cnpj' não pode ser limpo com "".`));

  const digits = await stack.request('PATCH', path, { headers: P1, body: { cnpj: '11222333000100' } });
  t.deepEqual(digits.body.error.errors, [{ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' }]);
  const unknown = await stack.request('PATCH', path, { headers: P1, body: { foo: 1 } });
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body.error.details, { camposDesconhecidos: [{ campo: 'foo', caminho: 'foo', objeto: '' }] });
  // Nothing changed.
  t.deepEqual((await stack.request('GET', path, { headers: P1 })).body.data, created);
});

test.serial('PATCH sandbox/ambienteFiscal: equal ignored, different 422 AMBIENTE_IMUTAVEL', async (t) => {
  const created = (await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer() })).body.data;
  const path = `/v1/companies/${created.issuerId}`;
  const same = await stack.request('PATCH', path, { headers: P1, body: { ambienteFiscal: 2, sandbox: false, razaoSocial: 'NOVA RAZAO LTDA' } });
  t.is(same.status, 200);
  t.like(same.body.data, { ambienteFiscal: 2, sandbox: false, razaoSocial: 'NOVA RAZAO LTDA' });

  const amb = await stack.request('PATCH', path, { headers: P1, body: { ambienteFiscal: 1, razaoSocial: 'NAO APLICA' } });
  t.is(amb.status, 422);
  t.deepEqual(amb.body, errorEnvelope(422, 'AMBIENTE_IMUTAVEL', 'ambienteFiscal não pode ser alterado por esta rota (atual: 2).', path, { details: { ambienteFiscal: 2 } })(amb.body));
  const sb = await stack.request('PATCH', path, { headers: P1, body: { sandbox: true } });
  t.is(sb.status, 422);
  t.is(sb.body.error.type, 'https://errors.test/AMBIENTE_IMUTAVEL');
  t.is((await stack.request('GET', path, { headers: P1 })).body.data.razaoSocial, 'NOVA RAZAO LTDA');
});

test.serial('ek_test_ key: a production non-sandbox issuer answers 403 CHAVE_TESTE_EMISSOR_PRODUCAO on every route acting on it; the list shows it', async (t) => {
  const LIVE = as('p-tk');
  const TEST = as('p-tk', { keyKind: 'test' });
  const created = (await stack.request('POST', '/v1/companies', { headers: TEST, body: aCompleteIssuer() })).body.data;
  const path = `/v1/companies/${created.issuerId}`;
  // In homologation the test key operates it.
  t.is((await stack.request('GET', path, { headers: TEST })).status, 200);
  t.like((await stack.request('PATCH', path, { headers: TEST, body: { nomeFantasia: 'HOMOLOG' } })).body.data, { nomeFantasia: 'HOMOLOG' });
  const a1 = createA1(createCa(), { cnpj: created.cnpj });
  t.is((await stack.request('POST', `${path}/certificate`, { headers: LIVE, body: { pfxBase64: a1.pfxBase64, password: a1.password } })).status, 201);

  t.is((await stack.request('PATCH', `/v1/admin/companies/${created.issuerId}/ambiente`, { headers: as('x', SUPERADMIN), body: { ambienteFiscal: 1 } })).status, 200);
  const refusals: [string, string, unknown][] = [
    ['GET', path, undefined],
    ['PATCH', path, { nomeFantasia: 'PRODUCAO' }],
    ['POST', `${path}/certificate`, { pfxBase64: a1.pfxBase64, password: a1.password }],
    ['POST', `${path}/certificate`, { pfxBase64: 'AAAA', password: 'x' }], // 403 before the PKCS#12 is even read
    ['DELETE', `${path}/certificate`, undefined],
    ['DELETE', path, undefined],
  ];
  for (const [method, url, body] of refusals) {
    const res = await stack.request(method as any, url, { headers: TEST, ...(body ? { body } : {}) });
    t.is(res.status, 403, `${method} ${url}`);
    t.deepEqual(res.body, errorEnvelope(403, 'CHAVE_TESTE_EMISSOR_PRODUCAO', 'Chave ek_test_ só opera emissores em homologação ou sandbox.', url)(res.body), `${method} ${url}`);
  }
  // Nothing changed: same name, certificate still installed, issuer not removed.
  const seen = await stack.request('GET', path, { headers: LIVE });
  t.like(seen.body.data, { ambienteFiscal: 1, sandbox: false, nomeFantasia: 'HOMOLOG', certificado: { cnpj: created.cnpj } });
  // Listing operates nothing: the test key sees the production issuer (and can tell it is production).
  const list = await stack.request('GET', '/v1/companies', { headers: TEST });
  t.is(list.status, 200);
  t.deepEqual(list.body.data, { items: [seen.body.data], nextCursor: null });
  // Another partner's production issuer is still 404 for a test key (existence is not disclosed).
  const foreign = await stack.request('GET', path, { headers: as('p-tk-other', { keyKind: 'test' }) });
  t.is(foreign.status, 404);

  // Marked sandbox, the test key operates it again.
  t.is((await stack.request('PATCH', `/v1/admin/companies/${created.issuerId}/ambiente`, { headers: as('x', SUPERADMIN), body: { sandbox: true } })).status, 200);
  t.like((await stack.request('PATCH', path, { headers: TEST, body: { nomeFantasia: 'SANDBOX' } })).body.data, { ambienteFiscal: 1, sandbox: true, nomeFantasia: 'SANDBOX' });
  t.like((await stack.request('DELETE', `${path}/certificate`, { headers: TEST })).body.data, { issuerId: created.issuerId, certificado: null });
  t.is((await stack.request('DELETE', path, { headers: TEST })).status, 200);
});

test.serial('concurrent PATCHes of different fields all land (row lock, no lost update)', async (t) => {
  const created = (await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer() })).body.data;
  const path = `/v1/companies/${created.issuerId}`;
  const patches = [{ cnae: '6201501' }, { inscricaoMunicipal: 'IM77' }, { csc: 'CSC-XYZ' }, { cscId: '42' }, { nomeFantasia: 'NOVO NOME' }, { endereco: { complemento: 'Loja 3' } }];
  const results = await Promise.all(patches.map((body) => stack.request('PATCH', path, { headers: P1, body })));
  t.deepEqual(results.map((r) => r.status), patches.map(() => 200));
  t.like((await stack.request('GET', path, { headers: P1 })).body.data, { cnae: '6201501', inscricaoMunicipal: 'IM77', csc: '...', cscId: '42', nomeFantasia: 'NOVO NOME', endereco: { complemento: 'Loja 3', numero: '100' } });
});

test.serial('PATCH to a CNPJ held by anyone answers 409 CNPJ_CONFLICT', async (t) => {
  const a = (await stack.request('POST', '/v1/companies', { headers: P1, body: aCompleteIssuer() })).body.data;
  const b = (await stack.request('POST', '/v1/companies', { headers: P2, body: aCompleteIssuer() })).body.data;
  const res = await stack.request('PATCH', `/v1/companies/${a.issuerId}`, { headers: P1, body: { cnpj: b.cnpj } });
  t.is(res.status, 409);
  t.is(res.body.error.detail, 'CNPJ já cadastrado. Para assumir este CNPJ, solicite transferência.');
});

test.serial('transfer request: recorded for a CNPJ held elsewhere, approved by a SUPERADMIN, the issuer moves', async (t) => {
  const held = (await stack.request('POST', '/v1/companies', { headers: as('holder'), body: aCompleteIssuer({ csc: 'SEGREDO', cscId: '2' }) })).body.data;
  const formatted = `${held.cnpj.slice(0, 2)}.${held.cnpj.slice(2, 5)}.${held.cnpj.slice(5, 8)}/${held.cnpj.slice(8, 12)}-${held.cnpj.slice(12)}`;
  const req = await stack.request('POST', '/v1/companies/transfer-request', { headers: as('taker'), body: { cnpj: formatted, motivo: 'A empresa mudou de software emissor', contato: 'fiscal@empresa.com' } });
  t.is(req.status, 202, JSON.stringify(req.body));
  t.deepEqual(req.body.data, { transferRequestId: req.body.data.transferRequestId, cnpj: held.cnpj, status: 'PENDENTE', motivo: 'A empresa mudou de software emissor', contato: 'fiscal@empresa.com', createdAt: req.body.data.createdAt, decidedAt: null });
  const again = await stack.request('POST', '/v1/companies/transfer-request', { headers: as('taker'), body: { cnpj: held.cnpj, motivo: 'Outra vez a mesma solicitação' } });
  t.is(again.body.data.transferRequestId, req.body.data.transferRequestId);

  const own = await stack.request('POST', '/v1/companies/transfer-request', { headers: as('holder'), body: { cnpj: held.cnpj, motivo: 'Pedido para mim mesmo' } });
  t.is(own.status, 409);
  const none = await stack.request('POST', '/v1/companies/transfer-request', { headers: as('taker'), body: { cnpj: aCnpj(), motivo: 'CNPJ que ninguém tem' } });
  t.is(none.status, 404);
  const bad = await stack.request('POST', '/v1/companies/transfer-request', { headers: as('taker'), body: { cnpj: '11222333000100', motivo: 'CNPJ com dígito errado' } });
  t.is(bad.status, 400);

  const forbidden = await stack.request('GET', '/v1/admin/transfer-requests', { headers: as('taker', { scheme: 'jwt', role: 'ADMIN' }) });
  t.is(forbidden.status, 403);
  const list = await stack.request('GET', '/v1/admin/transfer-requests?status=PENDENTE', { headers: as('x', SUPERADMIN) });
  t.is(list.status, 200);
  t.like(list.body.data.items.find((r: any) => r.transferRequestId === req.body.data.transferRequestId), { issuerId: held.issuerId, requesterPartnerId: 'taker', holderPartnerId: 'holder' });
  const unknownKey = await stack.request('GET', '/v1/admin/transfer-requests?page=2', { headers: as('x', SUPERADMIN) });
  t.is(unknownKey.status, 400);
  t.deepEqual(unknownKey.body.error.details, { camposDesconhecidos: [{ campo: 'page', caminho: 'page', objeto: '' }] });

  const approved = await stack.request('POST', `/v1/admin/transfer-requests/${req.body.data.transferRequestId}/approve`, { headers: as('x', SUPERADMIN) });
  t.is(approved.status, 200, JSON.stringify(approved.body));
  t.like(approved.body.data, { status: 'APROVADA', issuerId: held.issuerId });
  t.is((await stack.request('GET', `/v1/companies/${held.issuerId}`, { headers: as('holder') })).status, 404);
  const moved = await stack.request('GET', `/v1/companies/${held.issuerId}`, { headers: as('taker') });
  t.is(moved.status, 200);
  t.like(moved.body.data, { cnpj: held.cnpj, csc: null, cscId: null, certificado: null });
  const twice = await stack.request('POST', `/v1/admin/transfer-requests/${req.body.data.transferRequestId}/approve`, { headers: as('x', SUPERADMIN) });
  t.is(twice.status, 409);
});

test.serial('GET /v1/companies answers a page at a time, oldest first, with a cursor to the next', async (t) => {
  const created = [];
  for (let i = 0; i < 3; i++) created.push((await stack.request('POST', '/v1/companies', { body: aCompleteIssuer(), headers: as('p-page') })).body.data.issuerId);
  const first = await stack.request('GET', '/v1/companies?limit=2', { headers: as('p-page') });
  t.is(first.status, 200);
  t.deepEqual(first.body.data.items.map((i: any) => i.issuerId), created.slice(0, 2));
  t.is(typeof first.body.data.nextCursor, 'string');
  const second = await stack.request('GET', `/v1/companies?limit=2&cursor=${first.body.data.nextCursor}`, { headers: as('p-page') });
  t.deepEqual(second.body.data.items.map((i: any) => i.issuerId), created.slice(2));
  t.is(second.body.data.nextCursor, null);
  t.deepEqual((await stack.request('GET', '/v1/companies', { headers: as('p-page') })).body.data.items.map((i: any) => i.issuerId), created);

  const badCursor = await stack.request('GET', '/v1/companies?cursor=bm9wZQ', { headers: as('p-page') });
  t.deepEqual(badCursor.body, errorEnvelope(400, 'VALIDATION_ERROR', 'Dados de entrada inválidos.', '/v1/companies', {
    errors: [{ field: 'cursor', message: 'cursor inválido: use o valor de nextCursor da página anterior.' }],
  })(badCursor.body));
  for (const limit of ['0', '101', 'x']) {
    const bad = await stack.request('GET', `/v1/companies?limit=${limit}`, { headers: as('p-page') });
    t.is(bad.status, 400, limit);
    t.is(bad.body.error.type, 'https://errors.test/VALIDATION_ERROR', limit);
    t.is(bad.body.error.errors[0].field, 'limit', limit);
  }
});

test.serial('the OpenAPI document describes the issuer routes', async (t) => {
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  for (const [path, method] of [['/v1/companies', 'post'], ['/v1/companies', 'get'], ['/v1/companies/{id}', 'patch'], ['/v1/companies/{id}/certificate', 'post'], ['/v1/companies/transfer-request', 'post'], ['/v1/queries/cnpj/{cnpj}', 'get'], ['/v1/admin/transfer-requests/{id}/approve', 'post']]) {
    t.truthy(doc.paths[path!]?.[method!], `${method} ${path}`);
  }
  t.truthy(doc.paths['/v1/companies/{id}/certificate'].post.requestBody.content['application/json'].schema.properties.pfxBase64);
  for (const [path, method] of [['/v1/companies/{id}', 'get'], ['/v1/companies/{id}', 'patch'], ['/v1/companies/{id}', 'delete'], ['/v1/companies/{id}/certificate', 'post'], ['/v1/companies/{id}/certificate', 'delete']]) {
    t.regex(doc.paths[path!][method!].description, /ek_test_.*403 CHAVE_TESTE_EMISSOR_PRODUCAO/, `${method} ${path}`);
  }
  t.regex(doc.paths['/v1/companies'].get.description, /também com chave ek_test_/);
});
