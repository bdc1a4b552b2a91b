import test from 'ava';
import { authenticator } from 'otplib';
import { ManualClock } from '../../../services/shared/clock.js';
import { createPartnerWithKey, loginAs, TEST_PASSWORD } from '../../support/identity.js';
import { mailsTo } from '../../support/mail.js';
import { authStack, assertInvalidCredentials, assertError, bearer } from './helpers.js';

/** A real authenticator app: otplib at the stack's clock. */
const codeAt = (secret: string, clock: ManualClock) => authenticator.clone({ epoch: clock.now().getTime() }).generate(secret);

test('owner: login demands enrollment; setup + enable with a real TOTP code completes the login', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const p = await createPartnerWithKey(stack);
  const login = await stack.request('POST', '/v1/auth/login', { body: { email: p.ownerEmail, password: TEST_PASSWORD } });
  t.is(login.status, 201, login.text);
  t.deepEqual(Object.keys(login.body.data).sort(), ['expires_in', 'mfa_enrollment_required', 'mfa_required', 'mfa_token']);
  t.like(login.body.data, { mfa_required: true, mfa_enrollment_required: true, expires_in: 300 });
  const mfa = bearer(login.body.data.mfa_token);

  // Single purpose: the mfa_token is not a Bearer elsewhere.
  assertError(t, await stack.request('GET', '/v1/auth/me', { headers: mfa }), 401, 'UNAUTHORIZED', 'Credenciais inválidas');
  assertError(t, await stack.request('POST', '/v1/auth/api-keys/test/regenerate', { headers: mfa }), 401, 'UNAUTHORIZED');

  const setup = await stack.request('POST', '/v1/auth/2fa/setup', { headers: mfa });
  t.is(setup.status, 200, setup.text);
  const { secret, otpauthUri } = setup.body.data;
  t.regex(otpauthUri, /^otpauth:\/\/totp\/Fiscal%20API:owner-/);
  t.true(otpauthUri.includes(`secret=${secret}`));

  const bad = await stack.request('POST', '/v1/auth/2fa/enable', { headers: mfa, body: { totpCode: '000000' } });
  assertError(t, bad, 400, 'VALIDATION_ERROR', 'Código TOTP inválido ou expirado.');
  const enable = await stack.request('POST', '/v1/auth/2fa/enable', { headers: mfa, body: { totpCode: codeAt(secret, clock) } });
  t.is(enable.status, 200, enable.text);
  t.is(enable.body.data.recoveryCodes.length, 10);
  t.truthy(enable.body.data.access_token);
  const me = await stack.request('GET', '/v1/auth/me', { headers: bearer(enable.body.data.access_token) });
  t.like(me.body.data, { isOwner: true, user: { twoFactorEnabled: true } });

  // Once on, an mfa_token can no longer replace the authenticator.
  const again = await stack.request('POST', '/v1/auth/login', { body: { email: p.ownerEmail, password: TEST_PASSWORD } });
  t.like(again.body.data, { mfa_required: true, mfa_enrollment_required: false });
  assertError(t, await stack.request('POST', '/v1/auth/2fa/setup', { headers: bearer(again.body.data.mfa_token) }), 409, 'CONFLICT');

  // The mfa_token expires after 5 minutes.
  clock.advance(300_000);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken: again.body.data.mfa_token, totpCode: codeAt(secret, clock) } }), '/v1/auth/2fa/verify');
});

test('superadmin must enroll 2FA too; then a code in the login body or via /2fa/verify logs in, never the same code twice', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const sa = await loginAs(stack, { role: 'SUPERADMIN', now: () => clock.now() });
  t.truthy(sa.totpSecret);
  clock.advance(30_000);

  const noCode = await stack.request('POST', '/v1/auth/login', { body: { email: sa.email, password: TEST_PASSWORD } });
  t.like(noCode.body.data, { mfa_required: true, mfa_enrollment_required: false, expires_in: 300 });
  t.is(noCode.body.data.access_token, undefined);
  const code = codeAt(sa.totpSecret!, clock);
  const verify = await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken: noCode.body.data.mfa_token, totpCode: code } });
  t.is(verify.status, 201, verify.text);
  t.like(verify.body.data.user, { role: 'SUPERADMIN', partnerId: null });

  // The same code in its window: refused with the uniform 401.
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/login', { body: { email: sa.email, password: TEST_PASSWORD, totpCode: code } }));
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/login', { body: { email: sa.email, password: TEST_PASSWORD, totpCode: '123456' } }));
  clock.advance(30_000);
  const inBody = await stack.request('POST', '/v1/auth/login', { body: { email: sa.email, password: TEST_PASSWORD, totpCode: codeAt(sa.totpSecret!, clock) } });
  t.is(inBody.status, 201, inBody.text);
  t.truthy(inBody.body.data.access_token);
});

test('recovery codes replace the TOTP code once each, and e-mail the holder and the platform owner', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const owner = await loginAs(stack, { owner: true, now: () => clock.now() });
  const [code1, code2] = owner.recoveryCodes!;
  const r1 = await stack.request('POST', '/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD, recoveryCode: code1 } });
  t.is(r1.status, 201, r1.text);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD, recoveryCode: code1 } }));

  const challenge = await stack.request('POST', '/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD } });
  const r2 = await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken: challenge.body.data.mfa_token, recoveryCode: code2!.toLowerCase() } });
  t.is(r2.status, 201, r2.text);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken: challenge.body.data.mfa_token, recoveryCode: code2 } }), '/v1/auth/2fa/verify');

  const toHolder = mailsTo(stack.config.mail.dir, owner.email).filter((m) => m.subject.includes('recuperação'));
  const toPlatform = mailsTo(stack.config.mail.dir, stack.config.mail.platformOwner);
  t.is(toHolder.length, 2);
  t.is(toPlatform.length, 2);
  t.regex(toHolder[1]!.text, /Restam 8 códigos/);
  t.true(toPlatform[0]!.text.includes(owner.email));
  for (const m of [...toHolder, ...toPlatform]) t.false(m.text.includes(code1!) || m.text.includes(code2!), 'no code in e-mails');
});

test('2FA is optional for other users: they log in directly, may enable it and then need the code; disable needs password and code', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const u = await loginAs(stack, { role: 'CONTADOR' });
  const setup = await stack.request('POST', '/v1/auth/2fa/setup', { headers: u.headers });
  t.is(setup.status, 200, setup.text);
  const enable = await stack.request('POST', '/v1/auth/2fa/enable', { headers: u.headers, body: { totpCode: codeAt(setup.body.data.secret, clock) } });
  t.is(enable.status, 200, enable.text);
  t.is(enable.body.data.access_token, undefined, 'with a JWT, enable does not open another session');
  const login = await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: TEST_PASSWORD } });
  t.like(login.body.data, { mfa_required: true, mfa_enrollment_required: false });
  clock.advance(30_000);
  const off = await stack.request('POST', '/v1/auth/2fa/disable', { headers: u.headers, body: { password: TEST_PASSWORD, totpCode: codeAt(setup.body.data.secret, clock) } });
  t.is(off.status, 200, off.text);
  t.truthy((await stack.request('POST', '/v1/auth/login', { body: { email: u.email, password: TEST_PASSWORD } })).body.data.access_token);
});

test('owner and superadmin cannot disable 2FA', async (t) => {
  const stack = await authStack(t);
  const owner = await loginAs(stack, { owner: true });
  const res = await stack.request('POST', '/v1/auth/2fa/disable', { headers: owner.headers, body: { password: TEST_PASSWORD } });
  assertError(t, res, 403, 'PERMISSAO_INSUFICIENTE');
});

test('TOTP secrets are stored encrypted', async (t) => {
  const stack = await authStack(t);
  const owner = await loginAs(stack, { owner: true });
  const row = await stack.knex('auth.users').where({ id: owner.userId }).first();
  t.truthy(row.totp_secret_enc);
  t.false(row.totp_secret_enc.includes(owner.totpSecret!));
  t.regex(row.totp_secret_enc, /^v1\.k1\./);
  const codes = await stack.knex('auth.recovery_codes').where({ user_id: owner.userId });
  t.is(codes.length, 10);
  t.false(codes.some((c: any) => owner.recoveryCodes!.includes(c.code_hash)));
});
