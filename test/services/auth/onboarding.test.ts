import test from 'ava';
import { ManualClock } from '../../../services/shared/clock.js';
import { loginAs, createPartnerWithKey, TEST_PASSWORD } from '../../support/identity.js';
import { lastTokenSentTo, mailsTo, tokenMailedTo } from '../../support/mail.js';
import { authStack, assertError, assertInvalidCredentials } from './helpers.js';

const request = { name: 'Maria Souza', email: 'Maria@ERP.com.br', company: 'ERP Souza Ltda', whatsapp: '(11) 98765-4321', emits: ['NFE', 'NFCE'], volumePerMonth: 3000, erpStack: 'Delphi + Firebird' };

test('register records an access request: 202 { message, requestId }, no account; bad whatsapp is 400', async (t) => {
  const stack = await authStack(t);
  const res = await stack.request('POST', '/v1/auth/register', { body: request });
  t.is(res.status, 202, res.text);
  t.deepEqual(Object.keys(res.body.data).sort(), ['message', 'requestId']);
  const row = await stack.knex('auth.access_requests').where({ id: res.body.data.requestId }).first();
  t.like(row, { email: 'maria@erp.com.br', whatsapp: '11987654321', status: 'PENDING' });
  t.is(await stack.knex('auth.users').where({ email: 'maria@erp.com.br' }).first(), undefined);

  for (const whatsapp of ['98765-4321', '(11) 98765-43210', '+55 11 98765-4321', 'fale comigo']) {
    const bad = await stack.request('POST', '/v1/auth/register', { body: { ...request, whatsapp } });
    assertError(t, bad, 400, 'VALIDATION_ERROR');
    t.deepEqual(bad.body.error.errors, [{ field: 'whatsapp', message: "O campo 'whatsapp' deve ter 10 ou 11 dígitos com DDD." }]);
  }
  const withPassword = await stack.request('POST', '/v1/auth/register', { body: { ...request, password: 'x', cnpj: '1' } });
  assertError(t, withPassword, 400, 'VALIDATION_ERROR');
  t.deepEqual(withPassword.body.error.details.camposDesconhecidos.map((c: any) => c.campo).sort(), ['cnpj', 'password']);
});

test('approval creates the partner on Dev and mails a 7-day invite; accepting it creates the owner, who must enroll 2FA', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const sa = await loginAs(stack, { role: 'SUPERADMIN', now: () => clock.now() });
  const { requestId } = (await stack.request('POST', '/v1/auth/register', { body: request })).body.data;

  const member = await loginAs(stack);
  assertError(t, await stack.request('GET', '/v1/admin/access-requests', { headers: member.headers }), 403, 'PERMISSAO_INSUFICIENTE');
  const list = await stack.request('GET', '/v1/admin/access-requests?status=PENDING', { headers: sa.headers });
  t.is(list.status, 200, list.text);
  t.like(list.body.data.items[0], { id: requestId, company: 'ERP Souza Ltda', emits: ['NFE', 'NFCE'], status: 'PENDING' });

  const approve = await stack.request('POST', `/v1/admin/access-requests/${requestId}/approve`, { headers: sa.headers });
  t.is(approve.status, 201, approve.text);
  const { partnerId } = approve.body.data;
  t.like(approve.body.data, { accessRequestId: requestId, plan: 'DEV', subscriptionStatus: 'INACTIVE', invite: { email: 'maria@erp.com.br', expiresAt: '2026-05-08T08:00:00.000Z' } });
  assertError(t, await stack.request('POST', `/v1/admin/access-requests/${requestId}/approve`, { headers: sa.headers }), 409, 'CONFLICT');

  const token = lastTokenSentTo(stack.config.mail.dir, 'maria@erp.com.br');
  const accept = await stack.request('POST', '/v1/auth/invite/accept', { body: { token, name: 'Maria Souza', password: 'Senha-da-Maria-1' } });
  t.is(accept.status, 201, accept.text);
  t.like(accept.body.data, { partnerId, user: { email: 'maria@erp.com.br', role: 'ADMIN', partnerId }, mfa_enrollment_required: true });
  t.regex(accept.body.data.testApiKey, /^ek_test_/);
  assertError(t, await stack.request('POST', '/v1/auth/invite/accept', { body: { token, name: 'Maria', password: 'Senha-da-Maria-1' } }), 400, 'BAD_REQUEST', 'Convite inválido, expirado ou já usado.');

  const login = await stack.request('POST', '/v1/auth/login', { body: { email: 'maria@erp.com.br', password: 'Senha-da-Maria-1' } });
  t.like(login.body.data, { mfa_required: true, mfa_enrollment_required: true });
  const me = await stack.request('GET', '/v1/auth/me', { headers: { 'x-api-key': accept.body.data.testApiKey } });
  t.like(me.body.data, { partnerId, plan: 'DEV', partner: { name: 'ERP Souza Ltda', subscriptionStatus: 'INACTIVE' } });
  assertError(t, await stack.request('POST', `/v1/admin/partners/${partnerId}/owner-invite`, { headers: sa.headers }), 409, 'CONFLICT', 'Parceiro já tem proprietário.');
});

test('register-partner (SUPERADMIN) and owner-invite re-send: only the newest invite works, and it expires in 7 days', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const sa = await loginAs(stack, { role: 'SUPERADMIN', now: () => clock.now() });
  const created = await stack.request('POST', '/v1/auth/register-partner', { headers: sa.headers, body: { name: 'Loja X', ownerEmail: 'dono@lojax.com' } });
  t.is(created.status, 201, created.text);
  t.like(created.body.data, { plan: 'DEV', invite: { email: 'dono@lojax.com' } });
  const first = lastTokenSentTo(stack.config.mail.dir, 'dono@lojax.com');
  const resend = await stack.request('POST', `/v1/admin/partners/${created.body.data.partnerId}/owner-invite`, { headers: sa.headers });
  t.is(resend.status, 202, resend.text);
  const second = lastTokenSentTo(stack.config.mail.dir, 'dono@lojax.com');
  t.not(first, second);
  t.is(mailsTo(stack.config.mail.dir, 'dono@lojax.com').length, 2);
  const body = (token: string) => ({ body: { token, name: 'Dono', password: 'Senha-do-dono-1' } });
  assertError(t, await stack.request('POST', '/v1/auth/invite/accept', body(first)), 400, 'BAD_REQUEST', 'Convite inválido, expirado ou já usado.');
  clock.advance(7 * 24 * 3600_000);
  assertError(t, await stack.request('POST', '/v1/auth/invite/accept', body(second)), 400, 'BAD_REQUEST', 'Convite inválido, expirado ou já usado.');
});

test('reset-password: forgot is always 202; the token works once, kills other tokens and sessions; bad tokens get one uniform 400', async (t) => {
  const stack = await authStack(t);
  const u = await loginAs(stack);
  const unknown = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: 'nobody@example.com' } });
  const known = await stack.request('POST', '/v1/auth/forgot-password', { body: { email: u.email } });
  t.is(unknown.status, 202);
  t.is(known.status, 202);
  t.deepEqual(unknown.body.data, known.body.data);
  const older = await tokenMailedTo(stack.config.mail.dir, u.email, 1);
  await stack.request('POST', '/v1/auth/forgot-password', { body: { email: u.email } });
  const newest = await tokenMailedTo(stack.config.mail.dir, u.email, 2);

  const ok = await stack.request('POST', '/v1/auth/reset-password', { body: { token: newest, newPassword: 'Outra-senha-789' } });
  t.is(ok.status, 200, ok.text);
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: u.headers }), 401, 'UNAUTHORIZED');
  t.is((await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: 'Outra-senha-789' } })).status, 201);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: TEST_PASSWORD } }));

  const uniform = 'Token de redefinição inválido, expirado ou já usado.';
  for (const token of [newest, older, 'never-issued']) {
    assertError(t, await stack.request('POST', '/v1/auth/reset-password', { body: { token, newPassword: 'Mais-uma-senha-1' } }), 400, 'BAD_REQUEST', uniform);
  }
  const short = await stack.request('POST', '/v1/auth/reset-password', { body: { token: 'x', newPassword: 'curta' } });
  assertError(t, short, 400, 'VALIDATION_ERROR');
  const long = await stack.request('POST', '/v1/auth/reset-password', { body: { token: 'x', newPassword: 'a'.repeat(73) } });
  assertError(t, long, 400, 'VALIDATION_ERROR');
});

test('a reset token expires after 1 hour', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const p = await createPartnerWithKey(stack);
  await stack.request('POST', '/v1/auth/forgot-password', { body: { email: p.ownerEmail } });
  const token = await tokenMailedTo(stack.config.mail.dir, p.ownerEmail);
  clock.advance(3600_000);
  assertError(t, await stack.request('POST', '/v1/auth/reset-password', { body: { token, newPassword: 'Outra-senha-789' } }), 400, 'BAD_REQUEST', 'Token de redefinição inválido, expirado ou já usado.');
});
