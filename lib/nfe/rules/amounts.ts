import { absDiff, multiplyRound, percentOf, toScaled, type Scaled } from '../../money.js';

/**
 * Exact arithmetic shared by the rules: request numbers (width already checked by the schema)
 * become bigint of their smallest unit; comparisons tolerate one cent, the tolerance the
 * authority applies to per-item products (MOC 4.00, rejections 629/630).
 */

/**
 * value × 10^frac as an exact integer. Fast path without strings while value × 10^frac stays
 * below 1e14: a double with at most `frac` decimals is then within 0.03 of that integer after the
 * multiplication, so rounding recovers it exactly. Otherwise (or negative) the string path of
 * lib/money.ts. This runs for every amount of up to 990 items on the emission hot path.
 */
export function scaled(value: number, frac: number): Scaled {
  const factor = 10 ** frac;
  if (value >= 0 && value * factor < 1e14) return BigInt(Math.round(value * factor));
  return toScaled(value, frac);
}

export const cents = (value: number | undefined): Scaled => (value === undefined ? 0n : scaled(value, 2));

/** base (cents) × rate (%, up to 4 decimals) / 100, rounded half away from zero to cents. */
export const percentCents = (baseCents: Scaled, rate: number): Scaled => percentOf(baseCents, scaled(rate, 4), 4);

/** quantity (up to 4 decimals) × unit amount (up to `unitFrac` decimals), rounded to cents. */
export const productCents = (quantity: number, unit: number, unitFrac = 4): Scaled =>
  multiplyRound(scaled(quantity, 4), 4, scaled(unit, unitFrac), unitFrac, 2);

export const withinOneCent = (a: Scaled, b: Scaled): boolean => absDiff(a, b) <= 1n;

/** Names of the fields of `obj` that are present (not undefined). */
export function presentFields<T extends object>(obj: T, fields: readonly (keyof T)[]): (keyof T & string)[] {
  return fields.filter((f) => obj[f] !== undefined) as (keyof T & string)[];
}
