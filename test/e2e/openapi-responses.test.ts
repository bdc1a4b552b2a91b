import test from 'ava';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startStack, type HttpResult, type Stack } from '../support/stack.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { issueSandboxA1 } from '../../services/sefaz/simulator/sandbox-ca.js';
import { loginAs, TEST_PASSWORD } from '../support/identity.js';
import { lastTokenSentTo, mailsTo } from '../support/mail.js';
import { totpAt } from '../../lib/auth/totp.js';

/**
 * What a client generated from /api-docs-json expects, against what the routes answer: each body
 * below is validated (JSON Schema 2020-12, formats on) with the schema the document publishes for
 * that operation and status. An answer status the operation does not list fails too, as it would
 * land in a generated client's error branch.
 */
let stack: Stack;
let doc: any;
// ajv ships CommonJS typings NodeNext does not construct (as in webhook-payload-schemas.test.ts).
let ajv: any;

test.before(async () => {
  stack = await startStack();
  doc = (await stack.request('GET', '/api-docs-json')).body;
  ajv = new (Ajv2020 as any)({ strict: false, allErrors: true });
  (addFormats as any)(ajv);
  ajv.addSchema({ ...doc, $id: 'https://oas.test/doc' });
});
test.after.always(async () => { await stack?.stop(); });

const pointer = (...tokens: string[]) => tokens.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function conforms(t: any, res: HttpResult, method: string, path: string) {
  const responses = doc.paths[path]?.[method]?.responses;
  t.truthy(responses, `${method} ${path} is in the document`);
  t.truthy(responses?.[String(res.status)], `${method} ${path} lists its ${res.status}`);
  const validate = ajv.getSchema(`https://oas.test/doc#/${pointer('paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`)!;
  t.true(validate(res.body), `${method} ${path} ${res.status}: ${JSON.stringify(validate.errors)?.slice(0, 1500)}`);
}

test('issuer, certificate, /auth/me with an API key, the note and its list, inutilização: each answer is what the document says', async (t) => {
  const { headers, issuerId } = await integratorWithA1(stack, SANDBOX_CSC);
  const health = await stack.request('GET', '/health');
  t.is(doc.paths['/health'].get.responses['200'].content['application/json'].schema.properties.data.properties.checks.properties.database.properties.kind.enum.includes(health.body.data.checks.database.kind), true);
  conforms(t, health, 'get', '/health');
  t.deepEqual(doc.paths['/v1/auth/2fa/enable'].post.responses['200'].content['application/json'].schema.properties.data.properties.token_type, { const: 'Bearer' });
  conforms(t, await stack.request('GET', '/v1/auth/me', { headers }), 'get', '/v1/auth/me');
  const issuer = await stack.request('GET', `/v1/companies/${issuerId}`, { headers });
  t.is(issuer.body.data.endereco.complemento, null, 'an address field never sent is answered null');
  conforms(t, issuer, 'get', '/v1/companies/{id}');
  conforms(t, await stack.request('GET', '/v1/companies', { headers }), 'get', '/v1/companies');

  // The first certificate is 201, a replacement 200: both documented.
  const a1 = issueSandboxA1(stack.config.sefaz.simulatorDir, { cnpj: issuer.body.data.cnpj, password: 'senha-do-a1' });
  const replaced = await stack.request('POST', `/v1/companies/${issuerId}/certificate`, { headers, body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  t.is(replaced.status, 200, replaced.text);
  conforms(t, replaced, 'post', '/v1/companies/{id}/certificate');
  t.truthy(doc.paths['/v1/companies/{id}/certificate'].post.responses['201']);

  const note = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  conforms(t, note, 'post', '/v1/nfe');
  const got = await stack.request('GET', `/v1/nfe/${note.body.data.id}`, { headers });
  t.like(got.body.data, { ambiente: 2, situacao: null, erros: null });
  conforms(t, got, 'get', '/v1/nfe/{id}');
  for (const key of ['ambiente', 'situacao', 'authorizedAt', 'erros', 'motivo', 'proximaVerificacaoEm', 'updatedAt']) {
    t.truthy(doc.components.schemas.Documento.properties[key], `Documento documents ${key}`);
  }
  conforms(t, await stack.request('GET', '/v1/nfe', { headers }), 'get', '/v1/nfe');

  // A repeated inutilização of the same range answers the one registered, 200.
  const range = { issuerId, serie: 1, numeroInicial: 50, numeroFinal: 51, justificativa: 'Numeracao pulada por falha do sistema' };
  const first = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: range });
  t.is(first.status, 201, first.text);
  conforms(t, first, 'post', '/v1/nfe/inutilizacao');
  const again = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: range });
  t.is(again.status, 200, again.text);
  conforms(t, again, 'post', '/v1/nfe/inutilizacao');
});

test('SUPERADMIN provisioning and the owner invite: each refusal is a status the document lists, described', async (t) => {
  const sa = await loginAs(stack, { role: 'SUPERADMIN' });
  const mail = stack.config.mail.dir;
  const provision = (body: Record<string, unknown>) => stack.request('POST', '/v1/auth/register-partner', { headers: sa.headers, body: { name: 'Loja Provisionada', ...body } });
  const unknownRequest = await provision({ ownerEmail: 'sem-pedido@example.com', accessRequestId: '0b1f6f2e-5a39-4c8e-9d52-3b9f0f7a1c11' });
  t.is(unknownRequest.status, 404, unknownRequest.text);
  conforms(t, unknownRequest, 'post', '/v1/auth/register-partner');
  const request = await stack.request('POST', '/v1/auth/register', { body: { name: 'Ana Souza', email: 'pedido@example.com', company: 'Loja Pedido', whatsapp: '11999990000', emits: ['NFE'] } });
  conforms(t, request, 'post', '/v1/auth/register');
  const approved = await stack.request('POST', `/v1/admin/access-requests/${request.body.data.requestId}/approve`, { headers: sa.headers });
  conforms(t, approved, 'post', '/v1/admin/access-requests/{id}/approve');
  const twice = await provision({ ownerEmail: 'outro-dono@example.com', accessRequestId: request.body.data.requestId });
  t.is(twice.body.error.detail, 'Solicitação de acesso já aprovada.');
  conforms(t, twice, 'post', '/v1/auth/register-partner');
  t.regex(doc.paths['/v1/auth/register-partner'].post.responses['409'].description, /já aprovada/);

  // Two partners invite the same address: the first acceptance creates the account, the second is a 409.
  const [a, b] = [await provision({ ownerEmail: 'dono-disputado@example.com' }), await provision({ ownerEmail: 'dono-disputado@example.com' })];
  conforms(t, b, 'post', '/v1/auth/register-partner');
  const [tokenA, tokenB] = mailsTo(mail, 'dono-disputado@example.com').map((m) => /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]);
  t.is(tokenB, lastTokenSentTo(mail, 'dono-disputado@example.com'));
  const accepted = await stack.request('POST', '/v1/auth/invite/accept', { body: { token: tokenA, name: 'Dono', password: 'Senha-do-dono-1' } });
  t.is(accepted.body.data.partnerId, a.body.data.partnerId, accepted.text);
  conforms(t, accepted, 'post', '/v1/auth/invite/accept');
  const taken = await stack.request('POST', '/v1/auth/invite/accept', { body: { token: tokenB, name: 'Dono', password: 'Senha-do-dono-1' } });
  t.is(taken.status, 409, taken.text);
  conforms(t, taken, 'post', '/v1/auth/invite/accept');
  // Re-sending B's invite to that address would mail an invite no one can accept: refused.
  const resend = await stack.request('POST', `/v1/admin/partners/${b.body.data.partnerId}/owner-invite`, { headers: sa.headers, body: {} });
  t.is(resend.status, 409, resend.text);
  conforms(t, resend, 'post', '/v1/admin/partners/{id}/owner-invite');
  t.is(mailsTo(mail, 'dono-disputado@example.com').length, 2);

  // A wrong password on /2fa/disable is the 401 the document describes.
  const user = await loginAs(stack, { role: 'ADMIN' });
  const setup = await stack.request('POST', '/v1/auth/2fa/setup', { headers: user.headers });
  t.is((await stack.request('POST', '/v1/auth/2fa/enable', { headers: user.headers, body: { totpCode: totpAt(setup.body.data.secret, new Date()) } })).status, 200);
  const wrong = await stack.request('POST', '/v1/auth/2fa/disable', { headers: user.headers, body: { password: `${TEST_PASSWORD}-errada`, totpCode: '000000' } });
  t.is(wrong.status, 401, wrong.text);
  conforms(t, wrong, 'post', '/v1/auth/2fa/disable');
  t.regex(doc.paths['/v1/auth/2fa/disable'].post.responses['401'].description, /senha ou código/);
});
