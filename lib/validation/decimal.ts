/**
 * Fixed-point width checks for JSON numbers (API.md, Precision rules): `13v2` means up to 13
 * integer digits and 2 decimals. A binary double like 0.1+0.2 carries residue far below the last
 * allowed decimal; that residue is tolerated, a real extra digit (1.005) is not.
 */
export interface DecimalSpec {
  intDigits: number;
  fracDigits: number;
}

/** Relative tolerance in units of the last allowed decimal: far below half of it. */
const RESIDUE = 1e-6;

export type DecimalProblem = 'type' | 'intDigits' | 'fracDigits' | null;

export function checkDecimal(value: unknown, spec: DecimalSpec): DecimalProblem {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'type';
  const scale = 10 ** spec.fracDigits;
  const scaled = Math.abs(value) * scale;
  const rounded = Math.round(scaled);
  if (Math.abs(scaled - rounded) > Math.max(RESIDUE, rounded * Number.EPSILON * 4)) return 'fracDigits';
  // Compared as a number: from 1e21 up, toString() writes an exponent ("1e+308" has 6 characters).
  if (Math.floor(rounded / scale) >= 10 ** spec.intDigits) return 'intDigits';
  return null;
}

/** The value as an exact integer count of the smallest unit (e.g. cents for fracDigits 2). */
export function toScaledInt(value: number, fracDigits: number): bigint {
  return BigInt(Math.round(value * 10 ** fracDigits));
}
