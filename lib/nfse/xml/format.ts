import { formatCents, toCents } from '../../money.js';

/**
 * Number formats of the DPS 1.01 (tiposSimples_v1.01.xsd). Values leave with exactly 2 decimals,
 * never an exponent: the patterns accept `0`, `0.dd` and `[1-9]d*(.dd)?`, and `0.00`/`5.00` match
 * them. Request numbers were width-checked by lib/nfse/schema.ts, so rounding never moves a digit.
 */

/** TSDec15V2: money, through integer cents (lib/money.ts). */
export const money = (value: number): string => formatCents(toCents(value));

/** TSDec1V2 / TSDec2V2 / TSDec3V2: percentages with 2 decimals. */
export function percent(value: number): string {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a layout percentage: ${value}`);
  return formatCents(toCents(value));
}
