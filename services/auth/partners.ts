import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { DomainError } from '../../lib/errors/index.js';
import { generateApiKey, maskApiKey, type KeyKind } from '../../lib/auth/api-key.js';
import { hashPassword } from '../../lib/auth/password.js';
import { normalizeEmail, type UserRole } from '../../lib/auth/identity.js';
import type { Plan } from '../../lib/plans.js';
import type { Caller } from '../shared/caller.js';
import { partnerView, publicUser, type AuthDeps, type PartnerRow } from './context.js';
import { revokeSessions } from './sessions.js';

/**
 * Partners (tenants), their users and API keys (API.md, Resources > Partner, User, API key).
 */
export async function getPartner(d: AuthDeps, id: string): Promise<PartnerRow> {
  const p = await d.knex(d.t('partners')).where({ id }).first();
  if (!p) throw new DomainError('NOT_FOUND', undefined, 'Parceiro não encontrado.');
  return p as PartnerRow;
}

export async function insertPartner(d: AuthDeps, trx: Knex | Knex.Transaction, p: { name: string; plan?: Plan; subscription?: 'ACTIVE' | 'INACTIVE'; enterpriseRateLimit?: number | null }): Promise<PartnerRow> {
  const row = {
    id: randomUUID(), name: p.name, plan: p.plan ?? 'DEV', subscription_status: p.subscription ?? 'INACTIVE',
    enterprise_rate_limit: p.enterpriseRateLimit ?? null, active: true, has_emitted: false, created_at: d.clock.now(),
  };
  await trx(d.t('partners')).insert(row);
  return row as PartnerRow;
}

export async function insertUser(d: AuthDeps, trx: Knex | Knex.Transaction, u: { email: string; name: string; role: UserRole; partnerId: string | null; password: string; owner?: boolean }) {
  const email = normalizeEmail(u.email);
  if (await trx(d.t('users')).where({ email }).first('id')) throw new DomainError('CONFLICT', undefined, 'E-mail já cadastrado.');
  const now = d.clock.now();
  const row = { id: randomUUID(), email, name: u.name, role: u.role, partner_id: u.partnerId, password_hash: await hashPassword(u.password, d.argon2), created_at: now, password_changed_at: now };
  await trx(d.t('users')).insert(row);
  if (u.partnerId) await trx(d.t('partner_members')).insert({ user_id: row.id, partner_id: u.partnerId, role: u.owner ? 'OWNER' : 'MEMBER' });
  return publicUser(row);
}

export async function hasOwner(d: AuthDeps, partnerId: string): Promise<boolean> {
  return !!(await d.knex(d.t('partner_members')).where({ partner_id: partnerId, role: 'OWNER' }).first('user_id'));
}

/** A new key; `replace` revokes the partner's previous keys of that kind (regeneration). */
export async function issueKey(d: AuthDeps, partnerId: string, kind: KeyKind, replace: boolean) {
  const partner = await getPartner(d, partnerId);
  if (!partner.active) throw new DomainError('CONFLICT', undefined, 'Parceiro desativado.');
  const key = generateApiKey(kind);
  const now = d.clock.now();
  await d.knex.transaction(async (trx: Knex.Transaction) => {
    if (replace) await trx(d.t('api_keys')).where({ partner_id: partnerId, kind }).whereNull('revoked_at').update({ revoked_at: now });
    await trx(d.t('api_keys')).insert({ id: randomUUID(), partner_id: partnerId, kind, key_id: key.keyId, secret_hash: key.secretHash, created_at: now });
  });
  if (replace) await d.credentialsChanged();
  d.logger.info({ partnerId, kind, key: maskApiKey(kind, key.keyId) }, 'api key issued');
  return { apiKey: key.key, kind, keyId: key.keyId, partnerId, createdAt: now.toISOString() };
}

/** /v1/auth/api-keys/(test/)regenerate: partner administrators only; live needs ACTIVE. */
export async function regenerateKey(d: AuthDeps, caller: Caller | undefined, kind: KeyKind) {
  if (!caller?.partnerId) throw new DomainError('PERMISSAO_INSUFICIENTE', undefined, 'Chaves pertencem a um parceiro; este usuário não tem parceiro.');
  if (caller.role === 'CONTADOR') throw new DomainError('PERMISSAO_INSUFICIENTE');
  const partner = await getPartner(d, caller.partnerId);
  if (kind === 'live' && partner.subscription_status !== 'ACTIVE') throw new DomainError('ASSINATURA_INATIVA', undefined, 'Chave de produção exige assinatura ativa.');
  const { partnerId: _p, ...key } = await issueKey(d, partner.id, kind, true);
  return key;
}

export async function listKeys(d: AuthDeps, partnerId: string) {
  const rows = await d.knex(d.t('api_keys')).where({ partner_id: partnerId }).whereNull('revoked_at').orderBy('created_at');
  return rows.map((r: any) => ({ keyId: r.key_id, kind: r.kind, masked: maskApiKey(r.kind, r.key_id), createdAt: new Date(r.created_at).toISOString() }));
}

/**
 * Whether the partner has emitted, from the flag emission sets in the transaction of its first
 * document (services/emission/partner-activity.ts). A `true` is kept in auth's own `has_emitted`
 * (it never becomes false again), so later checks and the partner view need no call. Without an
 * answer, nothing is deactivated: 503, never a guess.
 */
async function hasEmitted(d: AuthDeps, partner: PartnerRow): Promise<boolean> {
  if (partner.has_emitted) return true;
  let activity: { hasDocuments: boolean };
  try {
    activity = await d.broker.call('v1.emission.partnerActivity', { partnerId: partner.id });
  } catch (err) {
    d.logger.warn({ partnerId: partner.id, err: (err as Error).message }, 'partner activity unknown: deactivation refused');
    throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Não foi possível confirmar se o parceiro já emitiu documentos; tente novamente.');
  }
  if (activity.hasDocuments) await d.knex(d.t('partners')).where({ id: partner.id }).update({ has_emitted: true });
  return activity.hasDocuments;
}

/**
 * API.md, Resources > Partner: refused once the partner has emitted; revokes keys and sessions.
 * An emission authenticated before the revocation and still running may commit after the check;
 * see README, Partner deactivation.
 */
export async function deactivatePartner(d: AuthDeps, id: string) {
  if (await hasEmitted(d, await getPartner(d, id))) throw new DomainError('PARCEIRO_COM_DOCUMENTOS');
  const now = d.clock.now();
  const result = await d.knex.transaction(async (trx: Knex.Transaction) => {
    const p = await trx(d.t('partners')).where({ id }).forUpdate().first();
    if (!p) throw new DomainError('NOT_FOUND', undefined, 'Parceiro não encontrado.');
    if (p.has_emitted) throw new DomainError('PARCEIRO_COM_DOCUMENTOS');
    await trx(d.t('partners')).where({ id }).update({ active: false, deactivated_at: now });
    const keys = await trx(d.t('api_keys')).where({ partner_id: id }).whereNull('revoked_at').update({ revoked_at: now });
    return { keys: Number(keys) };
  });
  const sessions = await revokeSessions(d, { partnerId: id }, 'partner_deactivated');
  await d.credentialsChanged();
  d.logger.info({ partnerId: id, ...result, sessions }, 'partner deactivated');
  return { partnerId: id, active: false, revokedKeys: result.keys, endedSessions: sessions };
}

/** Called by emission once a partner's first document exists; idempotent. */
export async function markEmitted(d: AuthDeps, partnerId: string) {
  const n = await d.knex(d.t('partners')).where({ id: partnerId }).update({ has_emitted: true });
  if (!n) throw new DomainError('NOT_FOUND', undefined, 'Parceiro não encontrado.');
  return { partnerId, hasEmitted: true };
}

export async function setPlan(d: AuthDeps, p: { partnerId: string; plan?: Plan; subscription?: 'ACTIVE' | 'INACTIVE'; enterpriseRateLimit?: number | null }) {
  await getPartner(d, p.partnerId);
  const patch: Record<string, unknown> = {};
  if (p.plan) patch.plan = p.plan;
  if (p.subscription) patch.subscription_status = p.subscription;
  if (p.enterpriseRateLimit !== undefined) patch.enterprise_rate_limit = p.enterpriseRateLimit;
  if (Object.keys(patch).length) await d.knex(d.t('partners')).where({ id: p.partnerId }).update(patch);
  await d.credentialsChanged();
  return partnerView(await getPartner(d, p.partnerId));
}
