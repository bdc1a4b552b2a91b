import test from 'ava';
import { authenticator } from 'otplib';
import { ManualClock } from '../../../services/shared/clock.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { createPartnerWithKey, loginAs, TEST_PASSWORD } from '../../support/identity.js';
import type { Stack } from '../../support/stack.js';
import { authStack, assertInvalidCredentials, assertError, bearer } from './helpers.js';

// The gateway's rate limiter keeps a process-wide Redis client; close it so the worker exits.
test.after.always(() => closeAllRedis());

/** A real authenticator app: otplib at the stack's clock. */
const codeAt = (secret: string, clock: ManualClock) => authenticator.clone({ epoch: clock.now().getTime() }).generate(secret);

async function sessionsOf(stack: Stack, userId: string): Promise<number> {
  const [row] = await stack.knex('auth.sessions').where({ user_id: userId }).count<{ n: string }[]>('* as n');
  return Number(row!.n);
}

/** Password step of a login that needs the second factor (or its enrollment): the mfa_token. */
async function mfaTokenFor(stack: Stack, email: string): Promise<string> {
  const res = await stack.request('POST', '/v1/auth/login', { body: { email, password: TEST_PASSWORD } });
  if (res.status !== 201 || !res.body?.data?.mfa_token) throw new Error(`expected an mfa challenge, got ${res.status} ${res.text}`);
  return res.body.data.mfa_token;
}

test('an mfa_token that completed a login is spent: using it again is 401, on /2fa/verify and on /2fa/setup', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const sa = await loginAs(stack, { role: 'SUPERADMIN', now: () => clock.now() });
  clock.advance(30_000);
  const mfaToken = await mfaTokenFor(stack, sa.email);
  const first = await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken, totpCode: codeAt(sa.totpSecret!, clock) } });
  t.is(first.status, 201, first.text);
  t.truthy(first.body.data.access_token);

  // A fresh, valid code does not revive the token.
  clock.advance(30_000);
  const code = codeAt(sa.totpSecret!, clock);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken, totpCode: code } }), '/v1/auth/2fa/verify');
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/setup', { headers: bearer(mfaToken) }), '/v1/auth/2fa/setup');
  t.is(await sessionsOf(stack, sa.userId), 2, 'the enrollment session and the one login');
  // The refusal was about the token: the same code still opens a session with a new token.
  const again = await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken: await mfaTokenFor(stack, sa.email), totpCode: code } });
  t.is(again.status, 201, again.text);
});

test('a wrong code does not spend the mfa_token: the right code then completes the login with the same token', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const owner = await loginAs(stack, { owner: true, now: () => clock.now() });
  clock.advance(30_000);
  const mfaToken = await mfaTokenFor(stack, owner.email);
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken, totpCode: '000000' } }), '/v1/auth/2fa/verify');
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken, recoveryCode: 'AAAAA-AAAAA' } }), '/v1/auth/2fa/verify');
  const ok = await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken, totpCode: codeAt(owner.totpSecret!, clock) } });
  t.is(ok.status, 201, ok.text);
  t.like(ok.body.data, { token_type: 'Bearer', user: { id: owner.userId } });
  t.is((await stack.request('GET', '/v1/auth/me', { headers: bearer(ok.body.data.access_token) })).status, 200);
  t.is(await stack.knex('auth.used_mfa_tokens').where({ user_id: owner.userId }).count<{ n: string }[]>('* as n').then((r) => Number(r[0]!.n)), 2, 'the enrollment token and this one');
});

test('two concurrent verifications with the same mfa_token and a valid code on two nodes open exactly one session', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock, nodes: 2, redis: true });
  const owner = await loginAs(stack, { owner: true, now: () => clock.now() });
  clock.advance(30_000);
  const mfaToken = await mfaTokenFor(stack, owner.email);
  const before = await sessionsOf(stack, owner.userId);
  const totpCode = codeAt(owner.totpSecret!, clock);
  const answers = await Promise.all([0, 1].map((node) => stack.request('POST', '/v1/auth/2fa/verify', { node, body: { mfaToken, totpCode } })));
  const won = answers.filter((r) => r.status === 201);
  t.is(won.length, 1, answers.map((r) => r.text).join('\n'));
  assertInvalidCredentials(t, answers.find((r) => r.status !== 201)!, '/v1/auth/2fa/verify');
  t.is(await sessionsOf(stack, owner.userId), before + 1);
});

test('the same mfa_token with two different recovery codes at once: one session, and the loser keeps its code', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock, nodes: 2, redis: true });
  const owner = await loginAs(stack, { owner: true, now: () => clock.now() });
  const mfaToken = await mfaTokenFor(stack, owner.email);
  const before = await sessionsOf(stack, owner.userId);
  const [c1, c2] = owner.recoveryCodes!;
  const answers = await Promise.all([c1, c2].map((recoveryCode, node) => stack.request('POST', '/v1/auth/2fa/verify', { node, body: { mfaToken, recoveryCode } })));
  t.deepEqual(answers.map((r) => r.status).sort(), [201, 401], answers.map((r) => r.text).join('\n'));
  assertInvalidCredentials(t, answers.find((r) => r.status === 401)!, '/v1/auth/2fa/verify');
  t.is(await sessionsOf(stack, owner.userId), before + 1);
  const used = await stack.knex('auth.recovery_codes').where({ user_id: owner.userId }).whereNotNull('used_at').count<{ n: string }[]>('* as n');
  t.is(Number(used[0]!.n), 1);
  // The losing code is still good, with a new token.
  const loser = answers[0]!.status === 401 ? c1! : c2!;
  const later = await stack.request('POST', '/v1/auth/2fa/verify', { body: { mfaToken: await mfaTokenFor(stack, owner.email), recoveryCode: loser } });
  t.is(later.status, 201, later.text);
});

test('completing the 2FA enrollment spends the mfa_token; a wrong code before it does not', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock });
  const p = await createPartnerWithKey(stack);
  const mfa = bearer(await mfaTokenFor(stack, p.ownerEmail));
  const setup = await stack.request('POST', '/v1/auth/2fa/setup', { headers: mfa });
  t.is(setup.status, 200, setup.text);
  assertError(t, await stack.request('POST', '/v1/auth/2fa/enable', { headers: mfa, body: { totpCode: '000000' } }), 400, 'VALIDATION_ERROR', 'Código TOTP inválido ou expirado.');
  const enable = await stack.request('POST', '/v1/auth/2fa/enable', { headers: mfa, body: { totpCode: codeAt(setup.body.data.secret, clock) } });
  t.is(enable.status, 200, enable.text);
  t.truthy(enable.body.data.access_token);

  // At once: an mfa_token's authentication is never cached (services/auth/authentication-cache.ts).
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/enable', { headers: mfa, body: { totpCode: codeAt(setup.body.data.secret, clock) } }), '/v1/auth/2fa/enable');
  assertInvalidCredentials(t, await stack.request('POST', '/v1/auth/2fa/setup', { headers: mfa }), '/v1/auth/2fa/setup');
  t.is(await sessionsOf(stack, p.ownerUserId), 1);
});

test('two concurrent enrollments with the same mfa_token and a valid code on two nodes open exactly one session', async (t) => {
  const clock = new ManualClock('2026-05-01T08:00:00Z');
  const stack = await authStack(t, { clock, nodes: 2, redis: true });
  const p = await createPartnerWithKey(stack);
  const mfa = bearer(await mfaTokenFor(stack, p.ownerEmail));
  const setup = await stack.request('POST', '/v1/auth/2fa/setup', { headers: mfa });
  const totpCode = codeAt(setup.body.data.secret, clock);
  const answers = await Promise.all([0, 1].map((node) => stack.request('POST', '/v1/auth/2fa/enable', { node, headers: mfa, body: { totpCode } })));
  const won = answers.filter((r) => r.status === 200);
  t.is(won.length, 1, answers.map((r) => r.text).join('\n'));
  t.truthy(won[0]!.body.data.access_token);
  // The loser either met the spent token (401) or, if it started after the winner committed, 2FA already on (409).
  const lost = answers.find((r) => r.status !== 200)!;
  if (lost.status === 401) assertInvalidCredentials(t, lost, '/v1/auth/2fa/enable');
  else assertError(t, lost, 409, 'CONFLICT', 'Autenticação em dois fatores já está ativa.');
  t.is(await sessionsOf(stack, p.ownerUserId), 1);
});
