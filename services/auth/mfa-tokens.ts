import type { Knex } from 'knex';
import type { MfaClaims } from '../../lib/auth/tokens.js';
import type { AuthDeps } from './context.js';

/**
 * Single use of mfa_tokens across replicas. A token is spent by inserting its jti; the primary key
 * decides between concurrent requests (a second insert of the same jti waits for the first
 * transaction and then conflicts). The spend runs in the transaction that checks the second
 * factor and opens the session, so a wrong code rolls it back and the holder may retry within
 * the lockout rules, while a completed login leaves the token spent for good.
 */
export async function spendMfaToken(d: AuthDeps, trx: Knex.Transaction, claims: Pick<MfaClaims, 'jti' | 'sub' | 'expiresAt'>): Promise<boolean> {
  const inserted = await trx(d.t('used_mfa_tokens'))
    .insert({ jti: claims.jti, user_id: claims.sub, used_at: d.clock.now(), expires_at: claims.expiresAt })
    .onConflict('jti').ignore()
    .returning('jti');
  return inserted.length === 1;
}

/** A spent token no longer opens /v1/auth/2fa/* (setup would otherwise answer 409, not 401). */
export async function isMfaTokenSpent(d: AuthDeps, jti: string): Promise<boolean> {
  return !!(await d.knex(d.t('used_mfa_tokens')).where({ jti }).first('jti'));
}
