/**
 * When to consult a document with a key and no terminal outcome (API.md, "Other behaviour" 1 and
 * Limits > Resend window: reconciliation runs for 7 days from creation). Intervals grow so a
 * long authority outage costs few calls; the first check waits longer than one authority call can
 * take (broker timeout 90 s), as long as a transmission's lease: a document still held by a live
 * transmission is not claimed anyway (lib/emission/transmission.ts).
 */
export const RECONCILIATION_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Delay before check number `attempt` (0 = the check scheduled when transmission starts). */
const SCHEDULE_MS = [2 * 60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 3_600_000, 4 * 3_600_000];
const MAX_DELAY_MS = 6 * 3_600_000;

export function checkDelayMs(attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a non-negative integer, got ${attempt}`);
  return SCHEDULE_MS[attempt] ?? MAX_DELAY_MS;
}

/**
 * The next check for a document created at `createdAt` after `attempt` checks, or null when it
 * would fall past the 7-day window (the document stays listed as indeterminate, with no next check).
 */
export function nextCheckAt(createdAt: Date, attempt: number, now: Date): Date | null {
  const end = createdAt.getTime() + RECONCILIATION_WINDOW_MS;
  if (now.getTime() >= end) return null;
  const at = now.getTime() + checkDelayMs(attempt);
  return new Date(Math.min(at, end));
}
