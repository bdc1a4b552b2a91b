import test from 'ava';
import { startStack } from '../support/stack.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1 } from '../support/e2e.js';

test('embedded mode (PGlite): cancel an NF-e and inutilize a range ahead that the numbering then skips', async (t) => {
  const stack = await startStack({ pglite: true });
  t.teardown(() => stack.stop());
  const { headers } = await integratorWithA1(stack);

  const doc = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.like(doc.body.data, { status: 'AUTHORIZED', number: 1 });
  const canceled = await stack.request('POST', `/v1/nfe/${doc.body.data.id}/cancelamento`, { headers, body: { justificativa: 'Pedido cancelado pelo cliente' } });
  t.is(canceled.status, 200, canceled.text);
  t.is(canceled.body.data.documento.status, 'CANCELADA');

  const inut = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: 2, numeroFinal: 3, justificativa: 'Numeracao reservada para outro sistema' } });
  t.is(inut.status, 201, inut.text);
  t.is((await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 2 }) })).status, 409);
  const next = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.like(next.body.data, { status: 'AUTHORIZED', number: 4 });
});
