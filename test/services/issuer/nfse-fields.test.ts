import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { aCompleteIssuer, as } from './support.js';

/**
 * The NFS-e fields of the Issuer resource (issue 16, item 5): accepted on POST, shown on GET,
 * PATCHed with the spec's null/"" rules, validated with 400 errors[] naming the field.
 */
let stack: Stack;
const P = as('p-nfse-fields');

test.before(async () => {
  stack = await startStack({ nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
});
test.after.always(async () => { await stack?.stop(); });

const NFSE_FIELDS = {
  inscricaoMunicipal: '12345678', servicoPadraoLc116: '1.07', cTribNacPadrao: '010701', codigoNbsPadrao: '115013000',
  pTotTribSNPadrao: 8.5, pTotTribSNCompetencia: '2026-09', tribIssqnPadrao: 1, indDestPadrao: 0, regEspTribPadrao: 6,
  email: 'fiscal@prestador.com.br', serieNfse: 900,
};

test('POST /v1/companies stores every NFS-e field and GET shows them', async (t) => {
  const res = await stack.request('POST', '/v1/companies', { headers: P, body: aCompleteIssuer(NFSE_FIELDS) });
  t.is(res.status, 201, res.text);
  t.like(res.body.data, NFSE_FIELDS);
  const got = await stack.request('GET', `/v1/companies/${res.body.data.issuerId}`, { headers: P });
  t.like(got.body.data, NFSE_FIELDS);
});

test('PATCH of the NFS-e fields: null keeps, "" clears, a value replaces; the others stay', async (t) => {
  const { issuerId } = (await stack.request('POST', '/v1/companies', { headers: P, body: aCompleteIssuer(NFSE_FIELDS) })).body.data;
  const path = `/v1/companies/${issuerId}`;
  const res = await stack.request('PATCH', path, {
    headers: P,
    body: { codigoNbsPadrao: null, tribIssqnPadrao: '', indDestPadrao: 1, regEspTribPadrao: '', email: 'outro@prestador.com.br', inscricaoMunicipal: '' },
  });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, {
    ...NFSE_FIELDS, codigoNbsPadrao: '115013000', tribIssqnPadrao: null, indDestPadrao: 1, regEspTribPadrao: null,
    email: 'outro@prestador.com.br', inscricaoMunicipal: null,
  });
});

test('PATCH and POST refuse malformed NFS-e fields with 400 naming each field', async (t) => {
  const { issuerId } = (await stack.request('POST', '/v1/companies', { headers: P, body: aCompleteIssuer() })).body.data;
  const path = `/v1/companies/${issuerId}`;
  const res = await stack.request('PATCH', path, { headers: P, body: { codigoNbsPadrao: '1150', tribIssqnPadrao: 5, indDestPadrao: 2, regEspTribPadrao: 7, email: 'sem-arroba' } });
  t.is(res.status, 400);
  t.is(res.body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.deepEqual(res.body.error.errors.map((e: any) => e.field).sort(), ['codigoNbsPadrao', 'email', 'indDestPadrao', 'regEspTribPadrao', 'tribIssqnPadrao']);
  const unchanged = await stack.request('GET', path, { headers: P });
  t.like(unchanged.body.data, { codigoNbsPadrao: null, tribIssqnPadrao: null, indDestPadrao: null, regEspTribPadrao: null, email: null });

  const post = await stack.request('POST', '/v1/companies', { headers: P, body: aCompleteIssuer({ codigoNbsPadrao: 'ABC' }) });
  t.is(post.status, 400);
  t.deepEqual(post.body.error.errors.map((e: any) => e.field), ['codigoNbsPadrao']);

  // pTotTribSN of the DPS is TSDec2V2 (up to 99.99): a default it could never carry is refused when stored.
  const percent = await stack.request('PATCH', path, { headers: P, body: { pTotTribSNPadrao: 100 } });
  t.is(percent.status, 400);
  t.deepEqual(percent.body.error.errors.map((e: any) => e.field), ['pTotTribSNPadrao']);
  t.is((await stack.request('PATCH', path, { headers: P, body: { pTotTribSNPadrao: 99.99 } })).status, 200);
});
