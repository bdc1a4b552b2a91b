/** Price plans and their per-second request limits (API.md, Limits). */
export const PLANS = ['DEV', 'STARTER', 'GROWTH', 'SCALE', 'ENTERPRISE'] as const;
export type Plan = (typeof PLANS)[number];

const LIMITS: Record<Exclude<Plan, 'ENTERPRISE'>, number> = { DEV: 5, STARTER: 20, GROWTH: 60, SCALE: 200 };

/** Enterprise is dedicated: its limit is set per partner; without one it gets Scale's. */
export function requestsPerSecond(plan: Plan, enterpriseLimit?: number | null): number {
  if (plan === 'ENTERPRISE') return enterpriseLimit && enterpriseLimit > 0 ? enterpriseLimit : LIMITS.SCALE;
  return LIMITS[plan];
}

/**
 * Plans that include assisted taxation (`fiscalBrain`, API.md "What the service does" 5). Product
 * decision (README, Assisted taxation): Growth and above. It is decision support that keeps a
 * per-product memory and a pending list to work through with the accountant: a tool for
 * integrators that already emit in volume, not for the free Dev tier or the entry Starter plan.
 */
const FISCAL_BRAIN: ReadonlySet<Plan> = new Set(['GROWTH', 'SCALE', 'ENTERPRISE']);

export function planIncludesFiscalBrain(plan: Plan): boolean {
  return FISCAL_BRAIN.has(plan);
}
