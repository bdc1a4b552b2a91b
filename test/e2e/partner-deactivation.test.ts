import test, { type ExecutionContext } from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { createPartnerWithKey, loginAs, type LoggedIn } from '../support/identity.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { aValidNfseBody, NFSE_ISSUER } from '../support/nfse-factories.js';

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

const firstDocumentOf = async (partnerId: string) => (await stack.knex('emission.partner_first_documents').where({ partner_id: partnerId }).first())?.document_id;

/** The deactivation is refused with the exact 409 envelope, and the partner and its key stay active. */
async function refusesDeactivation(t: ExecutionContext, partnerId: string, headers: Record<string, string>): Promise<void> {
  const path = `/v1/admin/partners/${partnerId}/deactivate`;
  const res = await stack.request('POST', path, { headers: admin.headers });
  t.is(res.status, 409, res.text);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/PARCEIRO_COM_DOCUMENTOS', title: 'Conflict', status: 409, detail: 'Parceiro que já emitiu documento fiscal não pode ser desativado.',
      instance: path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is((await stack.request('GET', '/v1/auth/me', { headers })).status, 200);
  t.like(await stack.knex('auth.partners').where({ id: partnerId }).first('active', 'has_emitted'), { active: true, has_emitted: true });
}

test.serial('a partner that emitted is not deactivated: 409 PARCEIRO_COM_DOCUMENTOS, its key keeps working', async (t) => {
  const { partner, headers } = await integratorWithA1(stack);
  const note = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(note.status, 201, note.text);
  t.is(await firstDocumentOf(partner.partnerId), note.body.data.id, 'set with the first document');
  await refusesDeactivation(t, partner.partnerId, headers);
  // A second note does not move the flag.
  t.is((await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() })).status, 201);
  t.is(await firstDocumentOf(partner.partnerId), note.body.data.id);
});

// The NFS-e store numbers a DPS in two ways (services/emission/nfse/store.ts numbered): a série
// without its sequence row yet takes a knex transaction; one that has it, the direct transaction
// (BEGIN sent with the claim). Both must set the flag in the statement that stores the DPS.
test.serial('a partner whose only document is an NFS-e (first DPS of a new série) is not deactivated', async (t) => {
  const { partner, headers, issuerId } = await integratorWithA1(stack, NFSE_ISSUER);
  const dps = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  t.is(dps.status, 201, dps.text);
  t.like(dps.body.data, { status: 'AUTHORIZED', nDPS: 1 });
  await refusesDeactivation(t, partner.partnerId, headers);
  t.is(await firstDocumentOf(partner.partnerId), dps.body.data.id, 'set with the first DPS');
  // A second DPS (now through the direct transaction) does not move the flag.
  t.is((await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) })).status, 201);
  t.is(await firstDocumentOf(partner.partnerId), dps.body.data.id);
});

test.serial('a partner whose only document is an NFS-e (série already numbered: the direct transaction) is not deactivated', async (t) => {
  const { partner, headers, issuerId } = await integratorWithA1(stack, NFSE_ISSUER);
  // The série's sequence row exists before the partner's first DPS (as after a migration or an
  // earlier DPS of the série), so that DPS takes the hot path.
  await stack.knex('emission.nfse_sequences').insert({ issuer_id: issuerId, serie: 1, environment: 2, next_number: 7 });
  const dps = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  t.is(dps.status, 201, dps.text);
  t.like(dps.body.data, { status: 'AUTHORIZED', nDPS: 7 });
  await refusesDeactivation(t, partner.partnerId, headers);
  t.is(await firstDocumentOf(partner.partnerId), dps.body.data.id, 'set with the first DPS');
});

// The NF-e/NFC-e paths besides the hot one (services/emission/numbering-store.ts): the
// integrator's own `numero` (createWithNumber) and an offline contingency NFC-e, numbered in a knex
// transaction with work after the insert (createNumbered's general path).
test.serial('a partner whose only document is an NF-e under its own numero is not deactivated', async (t) => {
  const { partner, headers } = await integratorWithA1(stack);
  const note = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 41 }) });
  t.is(note.status, 201, note.text);
  t.like(note.body.data, { number: 41 });
  await refusesDeactivation(t, partner.partnerId, headers);
  t.is(await firstDocumentOf(partner.partnerId), note.body.data.id);
});

test.serial('a partner whose only document is an NFC-e in offline contingency is not deactivated', async (t) => {
  const { partner, headers } = await integratorWithA1(stack, SANDBOX_CSC);
  const note = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody({ contingencia: true, justificativaContingencia: 'Sem conexao com a internet na loja' }) });
  t.is(note.status, 201, note.text);
  t.like(note.body.data, { status: 'CONTINGENCIA_PENDENTE', model: '65' });
  await refusesDeactivation(t, partner.partnerId, headers);
  t.is(await firstDocumentOf(partner.partnerId), note.body.data.id);
});

test.serial('a partner without documents is deactivated and its key refused', async (t) => {
  const partner = await createPartnerWithKey(stack);
  const res = await stack.request('POST', `/v1/admin/partners/${partner.partnerId}/deactivate`, { headers: admin.headers });
  t.is(res.status, 200, res.text);
  t.like(res.body.data, { partnerId: partner.partnerId, active: false, revokedKeys: 1 });
  t.is((await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': partner.apiKey } })).status, 401);
});
