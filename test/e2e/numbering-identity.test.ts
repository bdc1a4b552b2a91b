import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { companyWithA1, integratorWithA1 } from '../support/e2e.js';
import { createPartnerWithKey } from '../support/identity.js';
import { aValidNfeBody } from '../support/nfe-factories.js';

/**
 * Issue 23, defect 3: numbering belongs to the fiscal identity (CNPJ, model, series,
 * environment). Removing an issuer and registering its CNPJ again used to restart at 1, and the
 * authority (the simulator, like SEFAZ) refused every note with 539 until the numbering passed
 * the numbers it had seen. Every service real, with the simulator.
 */
let stack: Stack;

test.before(async () => {
  stack = await startStack();
});
test.after.always(async () => {
  await stack?.stop();
});

test.serial('a CNPJ registered again, by the same or another partner, continues its numbering; its old numbers are refused as used', async (t) => {
  const { headers, issuerId } = await integratorWithA1(stack);
  const { cnpj } = (await stack.request('GET', `/v1/companies/${issuerId}`, { headers })).body.data;
  for (const number of [1, 2, 3]) {
    const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
    t.like(res.body.data, { status: 'AUTHORIZED', number }, res.text);
  }
  t.is((await stack.request('DELETE', `/v1/companies/${issuerId}`, { headers })).status, 200);

  const again = await companyWithA1(stack, headers, { cnpj });
  t.not(again.issuerId, issuerId);
  const next = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(next.status, 201, next.text);
  t.like(next.body.data, { status: 'AUTHORIZED', number: 4, issuerId: again.issuerId });

  const reused = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 2 } as any) });
  t.is(reused.status, 409, reused.text);
  t.deepEqual(reused.body, {
    error: {
      type: 'https://errors.test/NUMERO_JA_UTILIZADO', title: 'Conflict', status: 409, detail: 'Número já utilizado nesta série e modelo.',
      details: { numero: 2, serie: 1 }, instance: '/v1/nfe', requestId: reused.headers.get('x-request-id'), timestamp: reused.body.error.timestamp,
    },
  });

  // The CNPJ moves to another integrator: the authority's numbering still goes on.
  t.is((await stack.request('DELETE', `/v1/companies/${again.issuerId}`, { headers })).status, 200);
  const other = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const otherHeaders = { 'x-api-key': other.apiKey };
  await companyWithA1(stack, otherHeaders, { cnpj });
  const moved = await stack.request('POST', '/v1/nfe', { headers: otherHeaders, body: aValidNfeBody() });
  t.like(moved.body.data, { status: 'AUTHORIZED', number: 5 }, moved.text);
});

test.serial('another CNPJ keeps its own numbering from 1', async (t) => {
  const { headers } = await integratorWithA1(stack);
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.like(res.body.data, { status: 'AUTHORIZED', number: 1 }, res.text);
});
