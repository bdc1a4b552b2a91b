/**
 * certificate.expiring thresholds (API.md, Events > Event types): 30, 15, 7, 3 and 1 day(s) before
 * expiry. The daily job asks, for each installed certificate, which threshold is due now: the
 * smallest threshold not below the whole days left. A job that missed days (node down) therefore
 * announces only the current threshold, never a stale "30 days" when 10 are left; each
 * (certificate, threshold) is announced once (the service keeps a unique record).
 */
export const EXPIRY_THRESHOLDS = [30, 15, 7, 3, 1] as const;
export type ExpiryThreshold = (typeof EXPIRY_THRESHOLDS)[number];

const DAY_MS = 86_400_000;

export interface ExpiryDue {
  threshold: ExpiryThreshold;
  /** Whole days until notAfter (0 when less than a day is left). */
  daysUntilExpiry: number;
}

export function dueExpiryThreshold(notAfter: Date, now: Date): ExpiryDue | null {
  const left = notAfter.getTime() - now.getTime();
  if (left <= 0) return null;
  const days = Math.floor(left / DAY_MS);
  let due: ExpiryThreshold | null = null;
  for (const t of EXPIRY_THRESHOLDS) if (days <= t) due = t; // list is descending: ends at the smallest fit
  return due === null ? null : { threshold: due, daysUntilExpiry: days };
}

/** Latest notAfter the job has to look at, for the query window. */
export function expiryWindowEnd(now: Date): Date {
  return new Date(now.getTime() + (EXPIRY_THRESHOLDS[0] + 1) * DAY_MS);
}
