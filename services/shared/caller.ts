import type { Plan } from '../../lib/plans.js';

export type Role = 'SUPERADMIN' | 'ADMIN' | 'CONTADOR';

/**
 * Who is calling, as resolved by v1.auth.authenticate and put in `ctx.meta.caller` by the gateway.
 * Partner-scoped actions read `partnerId` from here, never from the request body.
 */
export interface Caller {
  scheme: 'jwt' | 'key' | 'mfa';
  partnerId: string | null;
  userId: string | null;
  role: Role | null;
  /** OWNER of the partner (PartnerMember.role). */
  isOwner: boolean;
  /** Kind of API key; null for JWT callers. */
  keyKind: 'live' | 'test' | null;
  plan: Plan;
  /** Requests per second for this partner (plan, or the Enterprise contract). */
  rateLimit: number;
  subscriptionActive: boolean;
  sessionId?: string;
  /** scheme 'mfa': the mfa_token presented, so completing the enrollment can spend it (ISO date). */
  mfaToken?: { jti: string; expiresAt: string };
}

export interface CallerMeta {
  caller?: Caller;
  idempotencyKey?: string;
  /**
   * The gateway found no earlier use of the Idempotency-Key (services/gateway/idempotency.ts
   * begin's `firstUse`): nothing is bound to it, so the action does not look before working (a
   * binding made meanwhile still refuses its insert, and the action then answers it).
   */
  idempotencyFirstUse?: boolean;
  /**
   * Set false by an action whose answer describes a passing state (a note still open): the gateway
   * then keeps no replay copy for the Idempotency-Key, and a retry asks the action again.
   */
  $idempotencyKeep?: boolean;
  ip?: string;
  $statusCode?: number;
}
