import test from 'ava';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../services/shared/clock.js';
import { loadConfig } from '../../../config.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { loginAs, TEST_PASSWORD } from '../../support/identity.js';
import { startStack, type Stack } from '../../support/stack.js';
import { authStack, bearer, sleep } from './helpers.js';

// The gateway's rate limiter keeps a process-wide Redis client; close it so the worker exits.
test.after.always(() => closeAllRedis());

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = new Date('2026-05-01T08:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const NOTHING = { usedMfaTokens: 0, resetTokens: 0, invites: 0, refreshTokens: 0, sessions: 0, lockoutBuckets: 0 };

async function count(stack: Stack, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = await stack.knex(`auth.${table}`).where(where).count<{ n: string }[]>('* as n');
  return Number(row!.n);
}

const purge = (stack: Stack, node = 0) => stack.nodes[node]!.call('v1.auth.purgeExpired', {});

test('the purge deletes what has been dead longer than the grace (7 days) and keeps the rest', async (t) => {
  const clock = new ManualClock(T0);
  const stack = await authStack(t, { clock, env: { AUTH_PURGE_INTERVAL_MS: '0' } });
  const broker = stack.nodes[0]!;
  // T0: a session that lives on, an owner enrolled with an mfa_token then logged out, a reset
  // token, a failed login (two lockout buckets) and a partner whose owner invite is re-sent.
  const user = await loginAs(stack, { role: 'ADMIN' });
  const owner = await loginAs(stack, { owner: true, now: () => clock.now() });
  t.is((await stack.request('POST', '/v1/auth/logout', { headers: owner.headers })).status, 200);
  t.is((await stack.request('POST', '/v1/auth/forgot-password', { body: { email: user.email } })).status, 202);
  t.is((await stack.request('POST', '/v1/auth/login', { body: { email: 'ghost@example.com', password: TEST_PASSWORD } })).status, 401);
  const invited: any = await broker.call('v1.auth.createPartner', { name: 'Parceiro convidado', ownerEmail: 'convidado@example.com' });
  clock.advance(MIN);
  await broker.call('v1.auth.ownerInvite', { id: invited.partnerId });
  t.deepEqual([await count(stack, 'used_mfa_tokens'), await count(stack, 'reset_tokens'), await count(stack, 'invites'), await count(stack, 'lockout_buckets')], [1, 1, 2, 2]);
  // T0 + 1 day: the live session rotates its refresh token (the spent one expires T0 + 30 d, the session T0 + 31 d).
  clock.set(at(DAY));
  const rotated = await stack.request('POST', '/v1/auth/refresh', { body: { refreshToken: user.refreshToken } });
  t.is(rotated.status, 200, rotated.text);

  t.deepEqual(await purge(stack), NOTHING, 'nothing is past its grace yet');

  // A: the mfa_token (expired T0 + 5 min) and the logged-out session (revoked T0) are past the grace;
  // the reset token (expired T0 + 1 h) and the lockout buckets (reset T0 + 1 h) are still inside it.
  clock.set(at(7 * DAY + 30 * MIN));
  t.deepEqual(await purge(stack), { ...NOTHING, usedMfaTokens: 1, sessions: 1, refreshTokens: 1 });
  t.is(await count(stack, 'sessions', { user_id: owner.userId }), 0);
  t.is(await count(stack, 'sessions', { user_id: user.userId }), 1);
  t.is(await count(stack, 'reset_tokens'), 1);
  t.is(await count(stack, 'lockout_buckets'), 2);

  // B: the reset token, the lockout buckets and the superseded invite go; the newest invite of
  // the partner stays (re-sending reads the owner's address from it).
  clock.set(at(14 * DAY + 2 * HOUR));
  t.deepEqual(await purge(stack), { ...NOTHING, resetTokens: 1, invites: 1, lockoutBuckets: 2 });
  const [kept] = await stack.knex('auth.invites').select('created_at');
  t.deepEqual(new Date(kept.created_at), at(MIN));
  const resent: any = await broker.call('v1.auth.ownerInvite', { id: invited.partnerId });
  t.is(resent.invite.email, 'convidado@example.com');

  // C: the spent refresh token (expired T0 + 30 d) goes; its session, extended by the rotation,
  // stays. The invite kept at B is no longer the newest: it goes too.
  clock.set(at(37 * DAY + HOUR));
  t.deepEqual(await purge(stack), { ...NOTHING, refreshTokens: 1, invites: 1 });
  t.is(await count(stack, 'sessions', { user_id: user.userId }), 1);
  t.is(await count(stack, 'refresh_tokens'), 1);

  // D: the session (expired T0 + 31 d) and its last refresh token go.
  clock.set(at(38 * DAY + HOUR));
  t.deepEqual(await purge(stack), { ...NOTHING, refreshTokens: 1, sessions: 1 });
  t.is(await count(stack, 'sessions'), 0);
  t.is(await count(stack, 'refresh_tokens'), 0);
  t.deepEqual(await purge(stack), NOTHING);
  t.is(await count(stack, 'invites'), 1);
  // Users, partners, keys and recovery codes are not the purge's business.
  t.is(await count(stack, 'users', { id: user.userId }), 1);
  t.is(await count(stack, 'recovery_codes', { user_id: owner.userId }), 10);
});

test('two nodes purging at once delete every dead row exactly once and keep the live ones', async (t) => {
  const clock = new ManualClock(T0);
  const stack = await authStack(t, { clock, nodes: 2, redis: true, env: { AUTH_PURGE_INTERVAL_MS: '0' } });
  const sa: any = await stack.nodes[0]!.call('v1.auth.createSuperadmin', { email: 'purge-sa@example.com', password: TEST_PASSWORD, name: 'Super Admin' });
  const dead = at(-8 * DAY);
  const alive = at(DAY);
  const mfa = (expires: Date) => ({ jti: randomUUID(), user_id: sa.id, used_at: T0, expires_at: expires });
  const bucket = (i: number, last: Date) => ({ bucket: `email:purge-${i}-${last.getTime()}@example.com`, failures: 1, last_failure_at: last });
  const insert = async (table: string, rows: object[]) => { for (let i = 0; i < rows.length; i += 500) await stack.knex(`auth.${table}`).insert(rows.slice(i, i + 500)); };
  await insert('used_mfa_tokens', [...Array.from({ length: 1300 }, () => mfa(dead)), ...Array.from({ length: 40 }, () => mfa(alive))]);
  await insert('lockout_buckets', [...Array.from({ length: 1100 }, (_, i) => bucket(i, dead)), ...Array.from({ length: 10 }, (_, i) => bucket(i, T0))]);
  const sessions = [...Array.from({ length: 700 }, () => ({ expires: dead })), ...Array.from({ length: 20 }, () => ({ expires: alive }))]
    .map(({ expires }) => ({ id: randomUUID(), user_id: sa.id, created_at: at(-40 * DAY), expires_at: expires }));
  await insert('sessions', sessions);
  await insert('refresh_tokens', sessions.flatMap((s) => [0, 1].map(() => ({ token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'), session_id: s.id, created_at: s.created_at, expires_at: s.expires_at }))));

  const results: any[] = await Promise.all([purge(stack, 0), purge(stack, 1)]);
  const sum = (k: string) => results[0][k] + results[1][k];
  t.deepEqual(Object.fromEntries(Object.keys(NOTHING).map((k) => [k, sum(k)])), { ...NOTHING, usedMfaTokens: 1300, lockoutBuckets: 1100, sessions: 700, refreshTokens: 1400 });
  t.deepEqual([await count(stack, 'used_mfa_tokens'), await count(stack, 'lockout_buckets'), await count(stack, 'sessions'), await count(stack, 'refresh_tokens')], [40, 10, 20, 40]);
  t.deepEqual(await Promise.all([purge(stack, 0), purge(stack, 1)]), [NOTHING, NOTHING]);
  // Logins keep working on the purged tables.
  const owner = await loginAs(stack, { owner: true, now: () => clock.now() });
  t.is((await stack.request('GET', '/v1/auth/me', { headers: bearer(owner.accessToken) })).status, 200);
});

test('each auth node runs the purge on its own every AUTH_PURGE_INTERVAL_MS', async (t) => {
  const clock = new ManualClock(T0);
  const stack = await authStack(t, { clock, env: { AUTH_PURGE_INTERVAL_MS: '100', AUTH_PURGE_GRACE_MS: String(DAY) } });
  const sa: any = await stack.nodes[0]!.call('v1.auth.createSuperadmin', { email: 'timer-sa@example.com', password: TEST_PASSWORD, name: 'Super Admin' });
  await stack.knex('auth.used_mfa_tokens').insert([
    { jti: randomUUID(), user_id: sa.id, used_at: T0, expires_at: at(-DAY - HOUR) },
    { jti: randomUUID(), user_id: sa.id, used_at: T0, expires_at: at(-DAY + HOUR) },
  ]);
  const deadline = Date.now() + 10_000;
  while ((await count(stack, 'used_mfa_tokens')) > 1 && Date.now() < deadline) await sleep(50);
  t.is(await count(stack, 'used_mfa_tokens'), 1, 'the row past the 1-day grace is gone, the one inside it stays');
});

test('the purge works on the embedded database (PGlite), the default of npm start', async (t) => {
  const clock = new ManualClock(T0);
  const stack = await startStack({ pglite: true, clock, nodes: [{ services: ['auth'] }], env: { AUTH_PURGE_INTERVAL_MS: '0' } });
  t.teardown(() => stack.stop());
  const sa: any = await stack.nodes[0]!.call('v1.auth.createSuperadmin', { email: 'pglite-sa@example.com', password: TEST_PASSWORD, name: 'Super Admin' });
  const rows = (n: number, expires: Date) => Array.from({ length: n }, () => ({ jti: randomUUID(), user_id: sa.id, used_at: T0, expires_at: expires }));
  await stack.knex('auth.used_mfa_tokens').insert(rows(500, at(-8 * DAY)));
  await stack.knex('auth.used_mfa_tokens').insert([...rows(101, at(-8 * DAY)), ...rows(3, at(-DAY))]);
  t.deepEqual(await purge(stack), { ...NOTHING, usedMfaTokens: 601 });
  t.is(await count(stack, 'used_mfa_tokens'), 3);
});

test('purge settings: every 10 minutes with a 7-day grace by default; both configurable', (t) => {
  const env = { JWT_SECRET: 'x', ENCRYPTION_KEYS: `k1:${Buffer.alloc(32).toString('base64')}` };
  t.like(loadConfig(env).auth, { purgeIntervalMs: 10 * MIN, purgeGraceMs: 7 * DAY });
  t.like(loadConfig({ ...env, AUTH_PURGE_INTERVAL_MS: '0', AUTH_PURGE_GRACE_MS: String(DAY) }).auth, { purgeIntervalMs: 0, purgeGraceMs: DAY });
  t.throws(() => loadConfig({ ...env, AUTH_PURGE_GRACE_MS: '-1' }), { message: /AUTH_PURGE_GRACE_MS must be a non-negative integer/ });
});
