import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { createPartnerWithKey } from '../../support/identity.js';
import { companyWithA1 } from '../../support/e2e.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { eventually, goodsItem, noteOf, pendentes, RICE } from '../../support/assisted-taxation.js';

/**
 * The product class memory across nodes over Redis: two emission nodes write the accepted notes'
 * classes into their outbox, the relay hands them to the classification
 * node (a separate process in production), which applies them.
 */
let stack: Stack;
test.after.always(async () => { await stack?.stop(); await closeAllRedis(); });

test('notes accepted on two emission nodes reach the classification node through the outbox relay and update the memory', async (t) => {
  stack = await startStack({
    redis: true,
    env: {},
    nodes: [{ services: ['api-gateway', 'auth', 'issuer', 'sefaz'] }, { services: ['emission'] }, { services: ['emission'] }, { services: ['classification'] }],
  });
  const partner = await createPartnerWithKey(stack, { plan: 'ENTERPRISE' });
  const headers = { 'x-api-key': partner.apiKey };
  const { issuerId } = await companyWithA1(stack, headers, { fiscalBrainEnabled: true });
  const codes = Array.from({ length: 6 }, (_, i) => `ARROZ-${i}`);
  for (const codigo of codes) {
    const ok = await stack.request('POST', '/v1/fiscal/classification/classe', { headers, body: { issuerId, codigo, ncm: RICE.ncm, cClassTrib: '200003' } });
    t.is(ok.status, 200, ok.text);
  }
  // Each note sends another class for every item: all six confirmed classes are displaced.
  const body = { issuerId, ...noteOf(codes.map((codigo) => goodsItem({ ...RICE, codigo }, { ibsCbs: { cClassTrib: '000001' } as any }))) };
  const notes = await Promise.all([0, 1, 2, 3].map(() => stack.request('POST', '/v1/nfe', { headers, body })));
  t.deepEqual(notes.map((n) => n.status), [201, 201, 201, 201], notes.map((n) => n.text).join('\n'));
  // One application per accepted note, whichever node relayed it.
  await eventually(async () => Number((await stack.knex('classification.product_class_events').count({ n: '*' }))[0]!.n) === 4);
  const items = await pendentes(stack, headers, issuerId);
  t.deepEqual(items.map((i) => [i.codigo, i.origem, i.motivo, i.cClassTribAnterior]).sort(), codes.map((c) => [c, 'informado', 'deslocou_confirmada', '200003']));
});
