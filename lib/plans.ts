/** Price plans and their per-second request limits (API.md, Limits). */
export const PLANS = ['DEV', 'STARTER', 'GROWTH', 'SCALE', 'ENTERPRISE'] as const;
export type Plan = (typeof PLANS)[number];

const LIMITS: Record<Exclude<Plan, 'ENTERPRISE'>, number> = { DEV: 5, STARTER: 20, GROWTH: 60, SCALE: 200 };

/** Enterprise is dedicated: its limit is set per partner; without one it gets Scale's. */
export function requestsPerSecond(plan: Plan, enterpriseLimit?: number | null): number {
  if (plan === 'ENTERPRISE') return enterpriseLimit && enterpriseLimit > 0 ? enterpriseLimit : LIMITS.SCALE;
  return LIMITS[plan];
}
