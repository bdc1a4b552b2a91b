import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { ALL_SERVICES } from '../../../services/index.js';
import { integratorWithA1 } from '../../support/e2e.js';
import { aValidNfeBody } from '../../support/nfe-factories.js';

/**
 * Issue 23, defect 2: bounded work per request. A gateway node and a node with every other
 * service talk over the Redis transporter, as in production; before the bounds, a 200 000-key
 * body made the validator answer ~33 MB, Redis closed the gateway's subscriber and every reply
 * in transit (a login, emissions already authorized) was lost.
 */
let stack: Stack;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack({
    redis: true,
    env: {},
    nodes: [{ services: ['api-gateway'] }, { services: ALL_SERVICES.filter((s) => s !== 'api-gateway') }],
  });
  ({ headers } = await integratorWithA1(stack));
});
test.after.always(async () => {
  await stack?.stop();
});

function manyKeys(n: number, base: Record<string, unknown> = {}): string {
  const body: Record<string, unknown> = { ...base };
  for (let i = 0; i < n; i++) body[`campo${i}`] = 0;
  return JSON.stringify(body);
}

test.serial('a 200 000-key body on an unauthenticated route answers a small 400 while a concurrent emission is authorized', async (t) => {
  const rawBody = manyKeys(200_000, { email: 'ninguem@example.com', password: 'Senha-qualquer-1' });
  t.true(rawBody.length > 3_000_000 && rawBody.length < 5 * 1024 * 1024, 'under the 5 MB body limit');
  const [hostile, emission] = await Promise.all([
    stack.request('POST', '/v1/auth/login', { headers: { 'content-type': 'application/json' }, rawBody }),
    stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() }),
  ]);
  t.is(hostile.status, 400, hostile.text.slice(0, 500));
  t.true(hostile.text.length < 64 * 1024, `${hostile.text.length} bytes`);
  t.deepEqual(hostile.body, {
    error: {
      type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: 'Objeto raiz do corpo com mais de 500 chaves.',
      details: { chavesMaximasPorObjeto: 500, objeto: '' }, instance: '/v1/auth/login',
      requestId: hostile.headers.get('x-request-id'), timestamp: hostile.body.error.timestamp,
    },
  });
  t.is(emission.status, 201, emission.text);
  t.is(emission.body.data.status, 'AUTHORIZED');
  // The transporter still carries replies to this gateway.
  const after = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(after.status, 201, after.text);
});

test.serial('a nested object over the key bound names the object; the refusal comes before the action runs', async (t) => {
  const body = JSON.stringify({ ...aValidNfeBody(), destinatario: JSON.parse(manyKeys(501)) });
  const res = await stack.request('POST', '/v1/nfe', { headers: { ...headers, 'content-type': 'application/json' }, rawBody: body });
  t.is(res.status, 400, res.text);
  t.deepEqual(res.body.error, {
    type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: "Objeto 'destinatario' do corpo com mais de 500 chaves.",
    details: { chavesMaximasPorObjeto: 500, objeto: 'destinatario' }, instance: '/v1/nfe',
    requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
  });
  const anonymous = await stack.request('POST', '/v1/nfe', { headers: { 'content-type': 'application/json' }, rawBody: body });
  t.is(anonymous.status, 401, 'credentials are checked before the body');
});

test.serial('400 unknown keys are reported as the first 50 with the full counts, and no number is used', async (t) => {
  const before = await stack.knex('emission.documents').count('* as n').first();
  const res = await stack.request('POST', '/v1/nfe', { headers: { ...headers, 'content-type': 'application/json' }, rawBody: manyKeys(400, aValidNfeBody() as any) });
  t.is(res.status, 400, res.text.slice(0, 500));
  t.true(res.text.length < 64 * 1024, `${res.text.length} bytes`);
  const { error } = res.body;
  t.is(error.type, 'https://errors.test/VALIDATION_ERROR');
  t.is(error.errors.length, 50);
  t.is(error.details.camposDesconhecidos.length, 50);
  t.is(error.details.totalErros, 400);
  t.is(error.details.totalCamposDesconhecidos, 400);
  t.deepEqual(error.details.camposDesconhecidos[0], { campo: 'campo0', caminho: 'campo0', objeto: '' });
  t.is(error.errors[0].field, 'campo0');
  t.deepEqual(await stack.knex('emission.documents').count('* as n').first(), before);
});
