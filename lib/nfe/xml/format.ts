import { formatCents, toCents } from '../../money.js';

/**
 * Number formats of the NF-e 4.00 layout (tiposBasico_v4.00.xsd). Every value leaves as a fixed
 * decimal string, never with an exponent. Request numbers were width-checked by the schema
 * (precision rules), so `toFixed` on them is exact at the written scale.
 */

/** TDec_1302: money, 2 decimals, from cents. */
export const money = (cents: bigint): string => formatCents(cents);

/** TDec_1302 from a request number (already 2-decimal by the schema). */
export const moneyOf = (value: number): string => formatCents(toCents(value));

/** Trims trailing zeros down to `min` decimals (patterns like TDec_0302a04 accept 2-4). */
function trimTo(fixed: string, min: number): string {
  const dot = fixed.indexOf('.');
  if (dot < 0) return fixed;
  let end = fixed.length;
  while (end > dot + 1 + min && fixed.charCodeAt(end - 1) === 48) end--;
  return fixed.slice(0, end);
}

function fixed(value: number, frac: number): string {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a layout number: ${value}`);
  return value.toFixed(frac);
}

/** TDec_0302a04: rate %, 2 to 4 decimals (e.g. 18.00, 4.6500, 0.9000 → 0.90). */
export const rate = (value: number): string => trimTo(fixed(value, 4), 2);

/** TDec_1104v / TDec_1204v: quantity, written with 4 decimals. */
export const qty = (value: number): string => fixed(value, 4);

/** TDec_1104: 4 decimals exactly (vUnid of IPI). */
export const dec4 = (value: number): string => fixed(value, 4);

/** TDec_1110v: unit value, up to 10 decimals; at least 2 so cents always show. */
export const unitValue = (value: number): string => trimTo(fixed(value, 10), 2);

/** TDec_1203: weight, 3 decimals. */
export const weight = (value: number): string => fixed(value, 3);

/**
 * A value scaled by 10^4 (qBCMono totals) written with 2 decimals (ICMSTot/qBCMono is TDec_1302),
 * rounded half away from zero.
 */
export function scaled4To2(value: bigint): string {
  const q = (value + (value >= 0n ? 50n : -50n)) / 100n;
  return formatCents(q);
}
