import type { Knex } from 'knex';
import { DomainError } from '../../lib/errors/index.js';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../../lib/auth/password.js';
import { MFA_TTL_S, signMfaToken, verifyToken } from '../../lib/auth/tokens.js';
import { generateTotpSecret, otpauthUri, verifyTotp } from '../../lib/auth/totp.js';
import { generateRecoveryCodes, hashRecoveryCode } from '../../lib/auth/recovery-codes.js';
import { maskEmail, normalizeEmail, requiresTwoFactor } from '../../lib/auth/identity.js';
import { decrypt, encrypt } from '../../lib/crypto/aead.js';
import type { Caller } from '../shared/caller.js';
import type { AuthDeps, UserRow } from './context.js';
import { anyLocked, clearBucket, lockoutKeys, recordFailures } from './lockout-store.js';
import { activeUser, issueSession, revokeSessions, type SessionTokens } from './sessions.js';
import { spendMfaToken } from './mfa-tokens.js';

/**
 * Login with password and second factor (API.md, Authentication > Two-factor and Login lockout).
 * Every refusal is the same 401 `Credenciais inválidas`, and every path runs one Argon2id
 * verification, so neither the body nor the time tells an unknown e-mail from a wrong password or
 * a locked account.
 */
export const TOTP_ISSUER = 'Fiscal API';

export interface MfaChallenge {
  mfa_required: true;
  mfa_enrollment_required: boolean;
  mfa_token: string;
  expires_in: number;
}

interface SecondFactor { totpCode?: string; recoveryCode?: string }

async function isOwner(d: AuthDeps, userId: string): Promise<boolean> {
  return !!(await d.knex(d.t('partner_members')).where({ user_id: userId, role: 'OWNER' }).first('user_id'));
}

function totpAad(userId: string): string {
  return `totp:${userId}`;
}

export async function login(d: AuthDeps, p: { email: string; password: string } & SecondFactor, ip: string | undefined): Promise<SessionTokens | MfaChallenge> {
  const email = normalizeEmail(p.email);
  const keys = lockoutKeys(email, ip);
  const [locked, found] = await Promise.all([anyLocked(d, keys), d.knex(d.t('users')).where({ email }).first('id')]);
  const user = found ? await activeUser(d, found.id) : null;
  const passwordOk = await verifyPassword(p.password, user?.password_hash ?? (await dummyHash(d.argon2)));
  if (locked) {
    d.logger.info({ email: maskEmail(email) }, 'login refused: locked');
    throw new DomainError('UNAUTHORIZED');
  }
  if (!user || !passwordOk) return fail(d, keys, email, 'bad credentials');
  await upgradeHash(d, user, p.password);
  if (user.totp_enabled) {
    if (!p.totpCode && !p.recoveryCode) return challenge(d, user, false);
    if (!(await checkSecondFactor(d, user, p))) return fail(d, keys, email, 'bad second factor');
    await clearBucket(d, keys[0]!);
    return issueSession(d, user);
  }
  if (requiresTwoFactor(user.role, await isOwner(d, user.id))) return challenge(d, user, true);
  await clearBucket(d, keys[0]!);
  return issueSession(d, user);
}

/**
 * Issue 21, item 13: a hash of the former scheme (scrypt) or of other Argon2id costs is replaced
 * once the password was proven, the only moment the plain password is at hand. Only the hash
 * changes (not password_changed_at: sessions stay), and only if no password change won the race.
 */
async function upgradeHash(d: AuthDeps, user: UserRow, password: string): Promise<void> {
  if (!needsRehash(user.password_hash, d.argon2)) return;
  const hash = await hashPassword(password, d.argon2);
  await d.knex(d.t('users')).where({ id: user.id, password_hash: user.password_hash }).update({ password_hash: hash });
}

async function fail(d: AuthDeps, keys: string[], email: string, why: string): Promise<never> {
  await recordFailures(d, keys);
  d.logger.info({ email: maskEmail(email) }, `login refused: ${why}`);
  throw new DomainError('UNAUTHORIZED');
}

function challenge(d: AuthDeps, user: UserRow, enrollment: boolean): MfaChallenge {
  return { mfa_required: true, mfa_enrollment_required: enrollment, mfa_token: signMfaToken(user.id, d.config.jwtSecret, d.clock.now()), expires_in: MFA_TTL_S };
}

/** Thrown inside the login transaction to roll back the token's spend after a wrong code. */
class SecondFactorRefused extends Error {}

/**
 * /v1/auth/2fa/verify: completes a login started with the password. The mfa_token is spent, the
 * second factor checked and the session opened in one transaction (services/auth/mfa-tokens.ts):
 * of two requests with the same token only one can open a session, and a wrong code leaves the
 * token usable. A token already spent is the same uniform 401, not counted as a failure (it
 * proves nothing about the password or the code).
 */
export async function verifySecondFactor(d: AuthDeps, p: { mfaToken: string } & SecondFactor, ip: string | undefined): Promise<SessionTokens> {
  const claims = verifyToken(p.mfaToken, 'mfa', d.config.jwtSecret, d.clock.now());
  const user = claims ? await activeUser(d, claims.sub) : null;
  if (!claims || !user || !user.totp_enabled) throw new DomainError('UNAUTHORIZED');
  const keys = lockoutKeys(user.email, ip);
  if (await anyLocked(d, keys)) throw new DomainError('UNAUTHORIZED');
  let factor: SecondFactorKind | null = null;
  let session: SessionTokens | null;
  try {
    session = await d.knex.transaction(async (trx: Knex.Transaction) => {
      if (!(await spendMfaToken(d, trx, claims))) return null;
      factor = await secondFactor(d, trx, user, p);
      if (!factor) throw new SecondFactorRefused();
      return issueSession(d, user, trx);
    });
  } catch (err) {
    if (err instanceof SecondFactorRefused) return fail(d, keys, user.email, 'bad second factor');
    throw err;
  }
  if (!session) {
    d.logger.warn({ userId: user.id }, 'login refused: mfa_token already used');
    throw new DomainError('UNAUTHORIZED');
  }
  if (factor === 'recovery') await recoveryCodeUsed(d, user);
  await clearBucket(d, keys[0]!);
  return session;
}

type SecondFactorKind = 'totp' | 'recovery';

/** The second factor outside a transaction (code in the login body, /2fa/disable): check, then e-mail. */
async function checkSecondFactor(d: AuthDeps, user: UserRow, p: SecondFactor): Promise<boolean> {
  const factor = await secondFactor(d, d.knex, user, p);
  if (factor === 'recovery') await recoveryCodeUsed(d, user);
  return factor !== null;
}

/**
 * A TOTP code of a later time-step than the last accepted one, or an unused recovery code; spends
 * what it accepts through `db` (a transaction rolls it back). Sends nothing: see recoveryCodeUsed.
 */
async function secondFactor(d: AuthDeps, db: Knex | Knex.Transaction, user: UserRow, p: SecondFactor): Promise<SecondFactorKind | null> {
  const now = d.clock.now();
  if (p.recoveryCode) {
    const used = await db(d.t('recovery_codes'))
      .where({ user_id: user.id, code_hash: hashRecoveryCode(p.recoveryCode) }).whereNull('used_at')
      .update({ used_at: now });
    return used ? 'recovery' : null;
  }
  if (!p.totpCode || !user.totp_secret_enc) return null;
  const secret = decrypt(user.totp_secret_enc, d.config.encryptionKeys, totpAad(user.id));
  const last = user.totp_last_step === null ? null : Number(user.totp_last_step);
  const check = verifyTotp(secret, p.totpCode, now, last);
  if (!check.ok) return null;
  // Conditional update: two nodes accepting the same code at once cannot both win.
  const won = await db(d.t('users')).where({ id: user.id })
    .where((q: Knex.QueryBuilder) => q.whereNull('totp_last_step').orWhere('totp_last_step', '<', check.step))
    .update({ totp_last_step: check.step });
  return won === 1 ? 'totp' : null;
}

/** API.md, Two-factor 4: the holder and the platform owner hear of every recovery code used. */
async function recoveryCodeUsed(d: AuthDeps, user: UserRow): Promise<void> {
  const left = await d.knex(d.t('recovery_codes')).where({ user_id: user.id }).whereNull('used_at').count<{ n: string }[]>('* as n');
  const remaining = Number(left[0]?.n ?? 0);
  const when = d.clock.now().toISOString();
  await d.sendMail(user.email, 'Código de recuperação usado na sua conta',
    `Olá ${user.name},\n\nUm código de recuperação da autenticação em dois fatores foi usado para entrar na sua conta em ${when}.\nRestam ${remaining} códigos não usados.\nSe não foi você, troque sua senha imediatamente e avise o suporte.\n`);
  await d.sendMail(d.config.mail.platformOwner, 'Aviso: código de recuperação usado',
    `O usuário ${user.email} (id ${user.id}) entrou com um código de recuperação em ${when}. Restam ${remaining} códigos.\n`);
  d.logger.warn({ userId: user.id }, 'recovery code used');
}

function needUser(caller: Caller | undefined): string {
  if (!caller?.userId) throw new DomainError('FORBIDDEN', undefined, 'Esta rota exige um usuário autenticado.');
  return caller.userId;
}

/** /v1/auth/2fa/setup: a new secret, kept pending until /enable proves the authenticator has it. */
export async function setupTotp(d: AuthDeps, caller: Caller | undefined) {
  const user = await activeUser(d, needUser(caller));
  if (!user) throw new DomainError('UNAUTHORIZED');
  // With 2FA on, an mfa_token proves only the password: it must not replace the authenticator.
  if (user.totp_enabled) throw new DomainError('CONFLICT', undefined, 'Autenticação em dois fatores já está ativa.');
  const secret = generateTotpSecret();
  await d.knex(d.t('users')).where({ id: user.id }).update({ totp_pending_enc: encrypt(secret, d.config.encryptionKeys, totpAad(user.id)) });
  return { secret, otpauthUri: otpauthUri(user.email, TOTP_ISSUER, secret), issuer: TOTP_ISSUER, algorithm: 'SHA1', digits: 6, period: 30 };
}

/**
 * /v1/auth/2fa/enable: confirms the pending secret with a code and returns the recovery codes,
 * once. Called with an mfa_token (enrollment during login), it also completes the login and so
 * spends the token, in the transaction that enables 2FA; a wrong code spends nothing.
 */
export async function enableTotp(d: AuthDeps, caller: Caller | undefined, totpCode: string) {
  const user = await activeUser(d, needUser(caller));
  if (!user) throw new DomainError('UNAUTHORIZED');
  if (user.totp_enabled) throw new DomainError('CONFLICT', undefined, 'Autenticação em dois fatores já está ativa.');
  if (!user.totp_pending_enc) throw new DomainError('CONFLICT', undefined, 'Chame /v1/auth/2fa/setup antes de ativar.');
  const secret = decrypt(user.totp_pending_enc, d.config.encryptionKeys, totpAad(user.id));
  const check = verifyTotp(secret, totpCode, d.clock.now(), null);
  if (!check.ok) throw new DomainError('BAD_REQUEST', { errors: [{ field: 'totpCode', message: 'Código TOTP inválido ou expirado.' }] }, 'Código TOTP inválido ou expirado.');
  const withToken = caller!.scheme === 'mfa';
  const mfa = withToken ? caller!.mfaToken : undefined;
  if (withToken && !mfa) throw new DomainError('UNAUTHORIZED');
  const codes = generateRecoveryCodes();
  const session = await d.knex.transaction(async (trx: Knex.Transaction) => {
    if (mfa && !(await spendMfaToken(d, trx, { jti: mfa.jti, sub: user.id, expiresAt: new Date(mfa.expiresAt) }))) {
      d.logger.warn({ userId: user.id }, '2fa enrollment refused: mfa_token already used');
      throw new DomainError('UNAUTHORIZED');
    }
    await trx(d.t('users')).where({ id: user.id }).update({ totp_enabled: true, totp_secret_enc: user.totp_pending_enc, totp_pending_enc: null, totp_last_step: check.step });
    await trx(d.t('recovery_codes')).where({ user_id: user.id }).delete();
    await trx(d.t('recovery_codes')).insert(codes.map((c) => ({ user_id: user.id, code_hash: hashRecoveryCode(c) })));
    return withToken ? issueSession(d, user, trx) : null;
  });
  d.logger.info({ userId: user.id }, '2fa enabled');
  // The spent mfa_token needs no cache drop: mfa authentications are never cached (services/auth/authentication-cache.ts).
  if (!session) return { enabled: true, recoveryCodes: codes };
  await clearBucket(d, lockoutKeys(user.email, undefined)[0]!);
  return { enabled: true, recoveryCodes: codes, ...session };
}

/** /v1/auth/2fa/disable: only where 2FA is optional; needs the password and a current code. */
export async function disableTotp(d: AuthDeps, caller: Caller | undefined, p: { password: string; totpCode?: string }) {
  const user = await activeUser(d, needUser(caller));
  if (!user) throw new DomainError('UNAUTHORIZED');
  if (requiresTwoFactor(user.role, await isOwner(d, user.id))) throw new DomainError('PERMISSAO_INSUFICIENTE', undefined, 'Autenticação em dois fatores é obrigatória para este perfil.');
  if (!user.totp_enabled) throw new DomainError('CONFLICT', undefined, 'Autenticação em dois fatores não está ativa.');
  if (!(await verifyPassword(p.password, user.password_hash)) || !(await checkSecondFactor(d, user, { totpCode: p.totpCode }))) throw new DomainError('UNAUTHORIZED');
  await d.knex.transaction(async (trx: Knex.Transaction) => {
    await trx(d.t('users')).where({ id: user.id }).update({ totp_enabled: false, totp_secret_enc: null, totp_pending_enc: null });
    await trx(d.t('recovery_codes')).where({ user_id: user.id }).delete();
  });
  return { enabled: false };
}

/** /v1/auth/change-password: ends every session of the user (API.md, JWT bearer 3). */
export async function changePassword(d: AuthDeps, caller: Caller | undefined, p: { currentPassword: string; newPassword: string }) {
  const user = await activeUser(d, needUser(caller));
  if (!user) throw new DomainError('UNAUTHORIZED');
  if (!(await verifyPassword(p.currentPassword, user.password_hash))) {
    throw new DomainError('BAD_REQUEST', { errors: [{ field: 'currentPassword', message: 'Senha atual incorreta.' }] }, 'Senha atual incorreta.');
  }
  await setPassword(d, user.id, p.newPassword, 'password_changed');
  return { message: 'Senha alterada. Todas as sessões foram encerradas; entre novamente.' };
}

export async function setPassword(d: AuthDeps, userId: string, password: string, reason: string): Promise<void> {
  const hash = await hashPassword(password, d.argon2);
  await d.knex(d.t('users')).where({ id: userId }).update({ password_hash: hash, password_changed_at: d.clock.now() });
  await revokeSessions(d, { userId }, reason);
}
