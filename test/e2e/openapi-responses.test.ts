import test from 'ava';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startStack, type HttpResult, type Stack } from '../support/stack.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { issueSandboxA1 } from '../../services/sefaz/simulator/sandbox-ca.js';

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
