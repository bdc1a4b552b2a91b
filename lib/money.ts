/**
 * Money is never a float. Request JSON numbers (already checked to have at most `frac` decimals)
 * become exact integers of the smallest unit (cents for 2 decimals) as bigint; they leave as
 * fixed-point decimal strings ("1234.50"), the way the XML and the API print them.
 */
export type Scaled = bigint;

/** 12.34 → 1234n (frac 2). Binary residue (0.1+0.2) rounds to the nearest unit. */
export function toScaled(value: number, frac = 2): Scaled {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  // toFixed avoids the multiply-then-round error on large values (e.g. 9999999999999.99 * 100).
  const fixed = Math.abs(value).toFixed(frac);
  const digits = fixed.replace('.', '');
  const n = BigInt(digits);
  return value < 0 ? -n : n;
}

export const toCents = (value: number): Scaled => toScaled(value, 2);

/** 1234n → "12.34"; always `frac` decimals, never an exponent. */
export function formatScaled(value: Scaled, frac = 2): string {
  const negative = value < 0n;
  const abs = (negative ? -value : value).toString().padStart(frac + 1, '0');
  const out = frac === 0 ? abs : `${abs.slice(0, -frac)}.${abs.slice(-frac)}`;
  return negative ? `-${out}` : out;
}

export const formatCents = (cents: Scaled): string => formatScaled(cents, 2);

/**
 * Rounds a product of two scaled values to `outFrac` decimals, half away from zero (the rounding
 * the authority's validators apply to per-item values): a (aFrac) × b (bFrac) → outFrac.
 */
export function multiplyRound(a: Scaled, aFrac: number, b: Scaled, bFrac: number, outFrac = 2): Scaled {
  const product = a * b;
  const shift = aFrac + bFrac - outFrac;
  if (shift <= 0) return product * 10n ** BigInt(-shift);
  const divisor = 10n ** BigInt(shift);
  const half = divisor / 2n;
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const q = (abs + half) / divisor;
  return negative ? -q : q;
}

/** Percentage: base (cents) × rate (% with `rateFrac` decimals) / 100, rounded to cents. */
export function percentOf(baseCents: Scaled, rate: Scaled, rateFrac: number): Scaled {
  return multiplyRound(baseCents, 2, rate, rateFrac + 2, 2);
}

export function sum(values: Iterable<Scaled>): Scaled {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

export function absDiff(a: Scaled, b: Scaled): Scaled {
  return a > b ? a - b : b - a;
}

/** 123456n → "1.234,56": the Brazilian way a consumer reads an amount (infCpl texts, DANFE). */
export function formatBrl(cents: Scaled): string {
  const [int, frac] = formatScaled(cents < 0n ? -cents : cents, 2).split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${cents < 0n ? '-' : ''}${grouped},${frac}`;
}
