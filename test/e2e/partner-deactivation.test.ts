import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { integratorWithA1 } from '../support/e2e.js';
import { createPartnerWithKey, loginAs, type LoggedIn } from '../support/identity.js';
import { aValidNfeBody } from '../support/nfe-factories.js';

/**
 * Issue 23, defect 5 (API.md, Resources > Partner: a partner that has emitted cannot be
 * deactivated). The flag is written by emission in the transaction of the partner's first
 * document; auth asks emission before deactivating. Every service real, one node.
 */
let stack: Stack;
let admin: LoggedIn;

test.before(async () => {
  stack = await startStack();
  admin = await loginAs(stack, { role: 'SUPERADMIN' });
});
test.after.always(async () => {
  await stack?.stop();
});

test.serial('a partner that emitted is not deactivated: 409 PARCEIRO_COM_DOCUMENTOS, its key keeps working', async (t) => {
  const { partner, headers } = await integratorWithA1(stack);
  const note = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(note.status, 201, note.text);
  const flag = await stack.knex('emission.partner_first_documents').where({ partner_id: partner.partnerId }).first();
  t.is(flag.document_id, note.body.data.id, 'set with the first document');

  const path = `/v1/admin/partners/${partner.partnerId}/deactivate`;
  const res = await stack.request('POST', path, { headers: admin.headers });
  t.is(res.status, 409, res.text);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/PARCEIRO_COM_DOCUMENTOS', title: 'Conflict', status: 409, detail: 'Parceiro que já emitiu documento fiscal não pode ser desativado.',
      instance: path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is((await stack.request('GET', '/v1/auth/me', { headers })).status, 200);
  t.like(await stack.knex('auth.partners').where({ id: partner.partnerId }).first('active', 'has_emitted'), { active: true, has_emitted: true });
  // A second note does not move the flag.
  t.is((await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() })).status, 201);
  t.is((await stack.knex('emission.partner_first_documents').where({ partner_id: partner.partnerId }).first()).document_id, note.body.data.id);
});

test.serial('a partner without documents is deactivated and its key refused', async (t) => {
  const partner = await createPartnerWithKey(stack);
  const res = await stack.request('POST', `/v1/admin/partners/${partner.partnerId}/deactivate`, { headers: admin.headers });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, { partnerId: partner.partnerId, active: false, revokedKeys: 1 });
  t.is((await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': partner.apiKey } })).status, 401);
});
