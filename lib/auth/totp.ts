import { authenticator } from 'otplib';

/**
 * TOTP (RFC 6238) through otplib: 6 digits, 30-second steps, one step of tolerance either side
 * for clock drift. A code is accepted only for a time-step later than the last one used, so the
 * same code is never accepted twice in its window (RFC 6238 §5.2).
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_WINDOW = 1;

export function generateTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export function otpauthUri(accountName: string, issuer: string, secret: string): string {
  return authenticator.keyuri(accountName, issuer, secret);
}

export function timeStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);
}

export type TotpCheck = { ok: true; step: number } | { ok: false };

export function verifyTotp(secret: string, code: string, now: Date, lastUsedStep: number | null): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { ok: false };
  const otp = authenticator.clone({ epoch: now.getTime(), window: TOTP_WINDOW, step: TOTP_STEP_SECONDS });
  const delta = otp.checkDelta(code, secret);
  if (delta === null) return { ok: false };
  const step = timeStep(now) + delta;
  if (lastUsedStep !== null && step <= lastUsedStep) return { ok: false };
  return { ok: true, step };
}

/** The code for `now` (tests and tooling; the service never generates codes). */
export function totpAt(secret: string, now: Date): string {
  return authenticator.clone({ epoch: now.getTime(), step: TOTP_STEP_SECONDS }).generate(secret);
}
