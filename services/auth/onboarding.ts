import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { DomainError, validationError } from '../../lib/errors/index.js';
import { normalizeEmail, normalizeWhatsapp } from '../../lib/auth/identity.js';
import { INVITE_TTL_MS, RESET_TTL_MS } from '../../lib/auth/tokens.js';
import { randomToken, sha256Hex } from '../../lib/auth/secrets.js';
import type { Plan } from '../../lib/plans.js';
import type { AuthDeps } from './context.js';
import { setPassword } from './login.js';
import { lockoutKeys, clearBucket } from './lockout-store.js';
import { getPartner, hasOwner, insertPartner, insertUser, issueKey } from './partners.js';

/**
 * Access requests, owner invites and password resets (API.md, Authentication > Access requests;
 * Endpoints > register, register-partner, reset-password). Tokens travel only by e-mail and are
 * stored as SHA-256.
 */
const INVALID_RESET = 'Token de redefinição inválido, expirado ou já usado.';
const INVALID_INVITE = 'Convite inválido, expirado ou já usado.';

export interface RegisterBody { name: string; email: string; company: string; whatsapp: string; emits: string[]; volumePerMonth?: number; erpStack?: string }

export async function register(d: AuthDeps, p: RegisterBody) {
  const whatsapp = normalizeWhatsapp(p.whatsapp);
  if (!whatsapp) throw validationError([{ field: 'whatsapp', message: "O campo 'whatsapp' deve ter 10 ou 11 dígitos com DDD." }]);
  const id = randomUUID();
  await d.knex(d.t('access_requests')).insert({
    id, name: p.name, email: normalizeEmail(p.email), company: p.company, whatsapp, emits: JSON.stringify(p.emits),
    volume_per_month: p.volumePerMonth ?? null, erp_stack: p.erpStack ?? null, status: 'PENDING', created_at: d.clock.now(),
  });
  return { message: 'Solicitação recebida. Você receberá um convite por e-mail após a análise.', requestId: id };
}

export async function listAccessRequests(d: AuthDeps, p: { status?: string; limit: number; offset: number }) {
  const q = d.knex(d.t('access_requests')).orderBy('created_at', 'desc').limit(p.limit).offset(p.offset);
  if (p.status) q.where({ status: p.status });
  const rows = await q;
  return {
    items: rows.map((r: any) => ({
      id: r.id, name: r.name, email: r.email, company: r.company, whatsapp: r.whatsapp, emits: typeof r.emits === 'string' ? JSON.parse(r.emits) : r.emits,
      volumePerMonth: r.volume_per_month, erpStack: r.erp_stack, status: r.status, partnerId: r.partner_id,
      createdAt: new Date(r.created_at).toISOString(), decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    })),
    limit: p.limit,
    offset: p.offset,
  };
}

async function sendInvite(d: AuthDeps, partnerId: string, email: string, name: string | null) {
  const token = randomToken();
  const now = d.clock.now();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  await d.knex.transaction(async (trx: Knex.Transaction) => {
    // Only the newest invite of a partner is valid.
    await trx(d.t('invites')).where({ partner_id: partnerId }).whereNull('used_at').update({ used_at: now });
    await trx(d.t('invites')).insert({ token_hash: sha256Hex(token), partner_id: partnerId, email, name, created_at: now, expires_at: expiresAt });
  });
  const link = `${d.config.baseUrl}/convite?token=${token}`;
  await d.sendMail(email, 'Convite: ative sua conta na API fiscal',
    `Olá${name ? ` ${name}` : ''},\n\nSua conta de parceiro foi aprovada. Defina sua senha em até 7 dias:\n${link}\n\nOu envie POST /v1/auth/invite/accept com { "token": "${token}", "name", "password" }.\n`);
  return { email, expiresAt: expiresAt.toISOString() };
}

/** An invite to an address that already has an account could never be accepted: 409 instead. */
async function checkOwnerEmailFree(d: AuthDeps, email: string): Promise<void> {
  if (await d.knex(d.t('users')).where({ email }).first('id')) throw new DomainError('CONFLICT', undefined, 'E-mail do proprietário já cadastrado.');
}

/** Creates the partner on the Dev plan (unless told otherwise) and invites its owner. */
export async function provisionPartner(d: AuthDeps, p: { name: string; ownerEmail: string; ownerName?: string; plan?: Plan; subscription?: 'ACTIVE' | 'INACTIVE'; accessRequestId?: string }) {
  const email = normalizeEmail(p.ownerEmail);
  await checkOwnerEmailFree(d, email);
  const partner = await d.knex.transaction(async (trx: Knex.Transaction) => {
    if (p.accessRequestId) {
      const req = await trx(d.t('access_requests')).where({ id: p.accessRequestId }).forUpdate().first();
      if (!req) throw new DomainError('NOT_FOUND', undefined, 'Solicitação de acesso não encontrada.');
      if (req.status !== 'PENDING') throw new DomainError('CONFLICT', undefined, 'Solicitação de acesso já aprovada.');
    }
    const row = await insertPartner(d, trx, { name: p.name, plan: p.plan ?? 'DEV', subscription: p.subscription });
    if (p.accessRequestId) await trx(d.t('access_requests')).where({ id: p.accessRequestId }).update({ status: 'APPROVED', partner_id: row.id, decided_at: d.clock.now() });
    return row;
  });
  const invite = await sendInvite(d, partner.id, email, p.ownerName ?? null);
  d.logger.info({ partnerId: partner.id }, 'partner provisioned');
  return { partnerId: partner.id, name: partner.name, plan: partner.plan, subscriptionStatus: partner.subscription_status, invite };
}

export async function approveAccessRequest(d: AuthDeps, id: string) {
  const req = await d.knex(d.t('access_requests')).where({ id }).first();
  if (!req) throw new DomainError('NOT_FOUND', undefined, 'Solicitação de acesso não encontrada.');
  if (req.status !== 'PENDING') throw new DomainError('CONFLICT', undefined, 'Solicitação de acesso já aprovada.');
  return { accessRequestId: id, ...(await provisionPartner(d, { name: req.company, ownerEmail: req.email, ownerName: req.name, accessRequestId: id })) };
}

/** Re-sends the owner invite of a partner that still has no owner. */
export async function resendOwnerInvite(d: AuthDeps, p: { id: string; email?: string; name?: string }) {
  const partner = await getPartner(d, p.id);
  if (!partner.active) throw new DomainError('CONFLICT', undefined, 'Parceiro desativado.');
  if (await hasOwner(d, partner.id)) throw new DomainError('CONFLICT', undefined, 'Parceiro já tem proprietário.');
  const last = await d.knex(d.t('invites')).where({ partner_id: partner.id }).orderBy('created_at', 'desc').first();
  const email = p.email ? normalizeEmail(p.email) : last?.email;
  if (!email) throw validationError([{ field: 'email', message: "O campo 'email' é obrigatório: este parceiro nunca recebeu convite." }]);
  await checkOwnerEmailFree(d, email);
  return { partnerId: partner.id, invite: await sendInvite(d, partner.id, email, p.name ?? last?.name ?? null) };
}

/** Accepting the invite creates the owner user with its password, plus a first test key. */
export async function acceptInvite(d: AuthDeps, p: { token: string; name: string; password: string }) {
  const now = d.clock.now();
  const hash = sha256Hex(p.token);
  const invite = await d.knex(d.t('invites')).where({ token_hash: hash }).first();
  if (!invite || invite.used_at || new Date(invite.expires_at) <= now) throw new DomainError('BAD_REQUEST', undefined, INVALID_INVITE);
  const partner = await getPartner(d, invite.partner_id);
  if (!partner.active || (await hasOwner(d, partner.id))) throw new DomainError('BAD_REQUEST', undefined, INVALID_INVITE);
  const user = await d.knex.transaction(async (trx: Knex.Transaction) => {
    const spent = await trx(d.t('invites')).where({ token_hash: hash }).whereNull('used_at').update({ used_at: now });
    if (!spent) throw new DomainError('BAD_REQUEST', undefined, INVALID_INVITE);
    return insertUser(d, trx, { email: invite.email, name: p.name, role: 'ADMIN', partnerId: partner.id, password: p.password, owner: true });
  });
  const testKey = await issueKey(d, partner.id, 'test', false);
  d.logger.info({ partnerId: partner.id, userId: user.id }, 'owner invite accepted');
  return { user, partnerId: partner.id, mfa_enrollment_required: true, testApiKey: testKey.apiKey };
}

/** Always the same answer, whether or not the e-mail exists. */
export async function forgotPassword(d: AuthDeps, emailRaw: string) {
  const email = normalizeEmail(emailRaw);
  const user = await d.knex(d.t('users')).where({ email }).first('id', 'name');
  if (user) {
    const token = randomToken();
    const now = d.clock.now();
    await d.knex(d.t('reset_tokens')).insert({ token_hash: sha256Hex(token), user_id: user.id, created_at: now, expires_at: new Date(now.getTime() + RESET_TTL_MS) });
    // Not awaited: the answer must not tell, by its delay, that the address exists (an SMTP
    // exchange takes long enough to see). sendMail logs its own failures; the user can ask again.
    void d.sendMail(email, 'Redefinição de senha',
      `Olá ${user.name},\n\nPara definir uma nova senha (link válido por 1 hora):\n${d.config.baseUrl}/redefinir-senha?token=${token}\n\nOu envie POST /v1/auth/reset-password com { "token": "${token}", "newPassword" }.\nSe não foi você, ignore esta mensagem.\n`);
  }
  return { message: 'Se o e-mail estiver cadastrado, enviaremos as instruções de redefinição.' };
}

/** Invalid, expired or used: one uniform 400. Success kills the user's other reset tokens and sessions. */
export async function resetPassword(d: AuthDeps, p: { token: string; newPassword: string }) {
  const now = d.clock.now();
  const hash = sha256Hex(p.token);
  const row = await d.knex(d.t('reset_tokens')).where({ token_hash: hash }).whereNull('used_at').where('expires_at', '>', now).first();
  if (!row) throw new DomainError('BAD_REQUEST', undefined, INVALID_RESET);
  const spent = await d.knex(d.t('reset_tokens')).where({ user_id: row.user_id }).whereNull('used_at').update({ used_at: now });
  if (!spent) throw new DomainError('BAD_REQUEST', undefined, INVALID_RESET);
  await setPassword(d, row.user_id, p.newPassword, 'password_reset');
  const user = await d.knex(d.t('users')).where({ id: row.user_id }).first('email');
  await clearBucket(d, lockoutKeys(user.email, undefined)[0]!);
  return { message: 'Senha redefinida. Entre com a nova senha.' };
}
