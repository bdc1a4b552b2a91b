import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { DomainError } from '../../lib/errors/index.js';
import { requestsPerSecond } from '../../lib/plans.js';
import { ACCESS_TTL_S, REFRESH_TTL_MS, bearerToken, signAccessToken, verifyToken } from '../../lib/auth/tokens.js';
import { randomToken, sha256Hex } from '../../lib/auth/secrets.js';
import { apiKeyMatches, parseApiKey } from '../../lib/auth/api-key.js';
import type { Caller } from '../shared/caller.js';
import { publicUser, type AuthDeps, type UserRow } from './context.js';
import { isMfaTokenSpent } from './mfa-tokens.js';

/**
 * Sessions and authentication. A session is also its refresh-token family: the access token names
 * it (`sid`), every refresh rotates the token inside it, and revoking it (logout, password change,
 * reuse of a spent refresh token) kills the access token and every refresh token of the family.
 */
export interface SessionTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user: ReturnType<typeof publicUser>;
}

async function newRefreshToken(d: AuthDeps, trx: Knex | Knex.Transaction, sessionId: string, now: Date): Promise<string> {
  const token = randomToken();
  await trx(d.t('refresh_tokens')).insert({ token_hash: sha256Hex(token), session_id: sessionId, created_at: now, expires_at: new Date(now.getTime() + REFRESH_TTL_MS) });
  return token;
}

/** Opens a session; inside `trx` when given (it then commits with whatever completed the login). */
export async function issueSession(d: AuthDeps, user: UserRow, trx?: Knex.Transaction): Promise<SessionTokens> {
  const now = d.clock.now();
  const sessionId = randomUUID();
  const open = async (db: Knex.Transaction) => {
    await db(d.t('sessions')).insert({ id: sessionId, user_id: user.id, created_at: now, expires_at: new Date(now.getTime() + REFRESH_TTL_MS) });
    return newRefreshToken(d, db, sessionId, now);
  };
  const refresh = trx ? await open(trx) : await d.knex.transaction(open);
  d.logger.info({ userId: user.id, sessionId }, 'session opened');
  return { access_token: signAccessToken(user.id, sessionId, d.config.jwtSecret, now), refresh_token: refresh, token_type: 'Bearer', expires_in: ACCESS_TTL_S, user: publicUser(user) };
}

/** Revokes sessions; returns how many were open. */
export async function revokeSessions(d: AuthDeps, where: { sessionId?: string; userId?: string; partnerId?: string }, reason: string): Promise<number> {
  const q = d.knex(d.t('sessions')).whereNull('revoked_at');
  if (where.sessionId) q.where('id', where.sessionId);
  if (where.userId) q.where('user_id', where.userId);
  if (where.partnerId) q.whereIn('user_id', d.knex(d.t('users')).select('id').where('partner_id', where.partnerId));
  const n = await q.update({ revoked_at: d.clock.now(), revoked_reason: reason });
  if (n) await d.credentialsChanged();
  return Number(n);
}

/**
 * Rotation (API.md, JWT bearer 2): the presented token dies in this call. A token that was already
 * used is a sign of theft: the whole family (session) is revoked and the call answers 401.
 */
export async function refresh(d: AuthDeps, refreshToken: string): Promise<SessionTokens> {
  const now = d.clock.now();
  const hash = sha256Hex(refreshToken);
  const row = await d.knex(d.t('refresh_tokens')).where({ token_hash: hash }).first();
  if (!row) throw new DomainError('UNAUTHORIZED');
  const spent = await d.knex(d.t('refresh_tokens')).where({ token_hash: hash }).whereNull('used_at').update({ used_at: now });
  if (!spent) {
    await revokeSessions(d, { sessionId: row.session_id }, 'refresh_reuse');
    d.logger.warn({ sessionId: row.session_id }, 'refresh token reused: session revoked');
    throw new DomainError('UNAUTHORIZED');
  }
  if (new Date(row.expires_at) <= now) throw new DomainError('UNAUTHORIZED');
  const session = await d.knex(d.t('sessions')).where({ id: row.session_id }).whereNull('revoked_at').first();
  if (!session) throw new DomainError('UNAUTHORIZED');
  const user = await activeUser(d, session.user_id);
  if (!user) throw new DomainError('UNAUTHORIZED');
  const next = await d.knex.transaction(async (trx: Knex.Transaction) => {
    await trx(d.t('sessions')).where({ id: session.id }).update({ expires_at: new Date(now.getTime() + REFRESH_TTL_MS) });
    return newRefreshToken(d, trx, session.id, now);
  });
  return { access_token: signAccessToken(user.id, session.id, d.config.jwtSecret, now), refresh_token: next, token_type: 'Bearer', expires_in: ACCESS_TTL_S, user: publicUser(user) };
}

/** The user if it exists and its partner (if any) is active. */
export async function activeUser(d: AuthDeps, userId: string): Promise<UserRow | null> {
  const row = await d.knex(`${d.t('users')} as u`)
    .leftJoin(`${d.t('partners')} as p`, 'p.id', 'u.partner_id')
    .where('u.id', userId)
    .select('u.*', 'p.active as partner_active')
    .first();
  if (!row || row.partner_active === false) return null;
  return row as UserRow;
}

async function callerForUser(d: AuthDeps, userId: string, scheme: Caller['scheme'], sessionId?: string): Promise<Caller | null> {
  const row = await d.knex(`${d.t('users')} as u`)
    .leftJoin(`${d.t('partner_members')} as m`, 'm.user_id', 'u.id')
    .leftJoin(`${d.t('partners')} as p`, 'p.id', 'u.partner_id')
    .where('u.id', userId)
    .select('u.id', 'u.role', 'u.partner_id', 'm.role as member_role', 'p.plan', 'p.subscription_status', 'p.enterprise_rate_limit', 'p.active')
    .first();
  if (!row) return null;
  if (row.partner_id && !row.active) return null;
  // A platform user without partner (SUPERADMIN) gets the dedicated tier's default limit.
  const plan = row.partner_id ? row.plan : 'ENTERPRISE';
  return {
    scheme, partnerId: row.partner_id ?? null, userId: row.id, role: row.role, isOwner: row.member_role === 'OWNER', keyKind: null,
    plan, rateLimit: requestsPerSecond(plan, row.enterprise_rate_limit), subscriptionActive: row.subscription_status === 'ACTIVE',
    ...(sessionId ? { sessionId } : {}),
  };
}

/**
 * Who a credential is, and until when (epoch ms of the service clock) that answer can hold without
 * a write: the token's or session's end, whichever comes first; Infinity for an API key, which
 * ends only by a write (revocation, deactivation). A cache serves it no longer than that.
 */
export interface Authentication {
  caller: Caller;
  validUntil: number;
}

async function authenticateBearer(d: AuthDeps, token: string, purpose: 'api' | 'mfa'): Promise<Authentication> {
  const now = d.clock.now();
  if (purpose === 'mfa') {
    const mfa = verifyToken(token, 'mfa', d.config.jwtSecret, now);
    if (mfa) {
      const caller = await callerForUser(d, mfa.sub, 'mfa');
      if (caller && !(await isMfaTokenSpent(d, mfa.jti))) return { caller: { ...caller, mfaToken: { jti: mfa.jti, expiresAt: mfa.expiresAt.toISOString() } }, validUntil: mfa.expiresAt.getTime() };
      throw new DomainError('UNAUTHORIZED');
    }
  }
  const claims = verifyToken(token, 'access', d.config.jwtSecret, now);
  if (!claims) throw new DomainError('UNAUTHORIZED');
  const session = await d.knex(d.t('sessions')).where({ id: claims.sid, user_id: claims.sub }).whereNull('revoked_at').where('expires_at', '>', now).first('expires_at');
  if (!session) throw new DomainError('UNAUTHORIZED');
  const caller = await callerForUser(d, claims.sub, 'jwt', claims.sid);
  if (!caller) throw new DomainError('UNAUTHORIZED');
  return { caller, validUntil: Math.min(claims.expiresAt.getTime(), new Date(session.expires_at).getTime()) };
}

async function authenticateKey(d: AuthDeps, raw: string): Promise<Authentication> {
  const parsed = parseApiKey(raw);
  if (!parsed) throw new DomainError('UNAUTHORIZED');
  const row = await d.knex(`${d.t('api_keys')} as k`)
    .join(`${d.t('partners')} as p`, 'p.id', 'k.partner_id')
    .where({ 'k.key_id': parsed.keyId, 'k.kind': parsed.kind })
    .whereNull('k.revoked_at')
    .select('k.secret_hash', 'p.id as partner_id', 'p.plan', 'p.subscription_status', 'p.enterprise_rate_limit', 'p.active')
    .first();
  // Same answer for unknown id, wrong secret and a deactivated partner (API.md, Errors: 401).
  if (!row || !apiKeyMatches(parsed, row.secret_hash) || !row.active) throw new DomainError('UNAUTHORIZED');
  const subscriptionActive = row.subscription_status === 'ACTIVE';
  if (parsed.kind === 'live' && !subscriptionActive) throw new DomainError('ASSINATURA_INATIVA');
  const caller: Caller = {
    scheme: 'key', partnerId: row.partner_id, userId: null, role: null, isOwner: false, keyKind: parsed.kind,
    plan: row.plan, rateLimit: requestsPerSecond(row.plan, row.enterprise_rate_limit), subscriptionActive,
  };
  return { caller, validUntil: Number.POSITIVE_INFINITY };
}

/** What the gateway sends v1.auth.authenticate: the request's credentials, and which routes they are for. */
export interface AuthenticateParams {
  authorization?: string;
  apiKey?: string;
  purpose: 'api' | 'mfa';
}

/**
 * The gateway's authentication (services/api-gateway.service.ts): a Bearer access token with a
 * live session, an mfa_token only when purpose is 'mfa' (the /v1/auth/2fa/* routes), or an API
 * key. A Bearer token wins when both are sent.
 */
export async function authenticate(d: AuthDeps, p: AuthenticateParams): Promise<Authentication> {
  const token = bearerToken(p.authorization);
  if (token) return authenticateBearer(d, token, p.purpose);
  // A non-Bearer Authorization (a proxy's Basic, say) does not hide a valid x-api-key.
  if (p.apiKey && p.purpose === 'api') return authenticateKey(d, p.apiKey);
  throw new DomainError('UNAUTHORIZED');
}
