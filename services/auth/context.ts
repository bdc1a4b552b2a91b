import type { Knex } from 'knex';
import type { LoggerInstance, ServiceBroker } from 'moleculer';
import type { AppConfig } from '../../config.js';
import type { Clock } from '../shared/clock.js';
import type { Mailer } from '../shared/mailer.js';
import type { Argon2Params } from '../../lib/auth/password.js';
import type { UserRole } from '../../lib/auth/identity.js';
import type { Plan } from '../../lib/plans.js';

/** What the auth modules need from their service: storage, time, mail, configuration. */
export interface AuthDeps {
  knex: Knex;
  t(table: string): string;
  config: AppConfig;
  clock: Clock;
  mailer: Mailer;
  logger: LoggerInstance;
  broker: ServiceBroker;
  /** Cost of new password hashes (config.auth.argon2). */
  argon2: Argon2Params;
  /**
   * After a write that changes what authentication answers committed (logout, revocation, plan
   * change), before it answers: drops the cached authentications on every auth node, or waits out
   * the lease of a node that does not acknowledge (services/auth/authentication-cache.ts). When the
   * write answers, the credential fails on every node.
   */
  credentialsChanged(): Promise<void>;
  /** Sends mail without failing the caller: a lost message can be re-sent, a half-done flow cannot. */
  sendMail(to: string, subject: string, text: string): Promise<void>;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  partner_id: string | null;
  password_hash: string;
  totp_enabled: boolean;
  totp_secret_enc: string | null;
  totp_pending_enc: string | null;
  totp_last_step: string | number | null;
}

export interface PartnerRow {
  id: string;
  name: string;
  plan: Plan;
  subscription_status: 'ACTIVE' | 'INACTIVE';
  enterprise_rate_limit: number | null;
  active: boolean;
  has_emitted: boolean;
  created_at: Date;
}

/** The user as the login response shows it (API.md, Resources > User). */
export function publicUser(u: Pick<UserRow, 'id' | 'email' | 'name' | 'partner_id' | 'role'>) {
  return { id: u.id, email: u.email, name: u.name, partnerId: u.partner_id, role: u.role };
}

export function partnerView(p: PartnerRow) {
  return {
    id: p.id, name: p.name, plan: p.plan, subscriptionStatus: p.subscription_status, enterpriseRateLimit: p.enterprise_rate_limit,
    active: p.active, hasEmitted: p.has_emitted, createdAt: new Date(p.created_at).toISOString(),
  };
}
