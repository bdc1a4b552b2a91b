/**
 * Retry schedule of a delivery (API.md, Events > Delivery 3 and Limits > Webhook retries):
 * 5 attempts in total; after a failed attempt n (1-based) the next one waits BACKOFF_MS[n-1].
 */
export const MAX_ATTEMPTS = 5;

export const BACKOFF_MS: readonly number[] = [
  5 * 60_000, // after attempt 1
  30 * 60_000, // after attempt 2
  2 * 3_600_000, // after attempt 3
  24 * 3_600_000, // after attempt 4
];

/** What happens to a delivery after attempt `attempt` of its current schedule. */
export type AttemptOutcome =
  | { status: 'delivered' }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'dead' }
  | { status: 'failed' };

/**
 * Next state after an attempt. `maxAttempts` is MAX_ATTEMPTS for events; a test delivery has a
 * single attempt and ends `failed` (it never enters the dead-letter queue).
 */
export function afterAttempt(attempt: number, ok: boolean, finishedAt: Date, maxAttempts: number = MAX_ATTEMPTS): AttemptOutcome {
  if (ok) return { status: 'delivered' };
  if (attempt >= maxAttempts) return maxAttempts === MAX_ATTEMPTS ? { status: 'dead' } : { status: 'failed' };
  const wait = BACKOFF_MS[attempt - 1] ?? BACKOFF_MS[BACKOFF_MS.length - 1]!;
  return { status: 'pending', nextAttemptAt: new Date(finishedAt.getTime() + wait) };
}

/** Any 2xx is success (API.md, Events > Delivery 2). */
export function isSuccessStatus(statusCode: number | null | undefined): boolean {
  return typeof statusCode === 'number' && statusCode >= 200 && statusCode < 300;
}
