import { absDiff, multiplyRound, percentOf, toCents, toScaled, type Scaled } from '../../money.js';

/**
 * Exact arithmetic shared by the rules: request numbers (width already checked by the schema)
 * become bigint of their smallest unit; comparisons tolerate one cent, the tolerance the
 * authority applies to per-item products (MOC 4.00, rejections 629/630).
 */
export const cents = (value: number | undefined): Scaled => (value === undefined ? 0n : toCents(value));

/** base (cents) × rate (%, up to 4 decimals) / 100, rounded half away from zero to cents. */
export const percentCents = (baseCents: Scaled, rate: number): Scaled => percentOf(baseCents, toScaled(rate, 4), 4);

/** quantity (up to 4 decimals) × unit amount (up to `unitFrac` decimals), rounded to cents. */
export const productCents = (quantity: number, unit: number, unitFrac = 4): Scaled =>
  multiplyRound(toScaled(quantity, 4), 4, toScaled(unit, unitFrac), unitFrac, 2);

export const withinOneCent = (a: Scaled, b: Scaled): boolean => absDiff(a, b) <= 1n;

/** Names of the fields of `obj` that are present (not undefined). */
export function presentFields<T extends object>(obj: T, fields: readonly (keyof T)[]): (keyof T & string)[] {
  return fields.filter((f) => obj[f] !== undefined) as (keyof T & string)[];
}
