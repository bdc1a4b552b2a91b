import type { ClassTrib, Pct4, YearRates } from './types.js';

/**
 * IBS/CBS rates of a class in a year: the year's full rates (data/classification: CBS from the
 * official aliquotas_cbs_*.csv, 2026 0.9 %; IBS from aliquotas_ibscbs.csv, 2026 0.1 % state and 0
 * municipal, LC 214/2025 art. 343) reduced by the class's
 * pRedIBS/pRedCBS. The layout carries the full rate (pNominal) and the reduction (pRedAliq) in gRed
 * only when there is a reduction; the effective rate p = full × (1 − reduction), rounded half up
 * to the layout's 4 decimals.
 */
export interface ClassRate {
  nominal: Pct4;
  pRed: Pct4;
  p: Pct4;
}

export interface ClassRates {
  ibsUf: ClassRate;
  ibsMun: ClassRate;
  cbs: ClassRate;
}

const HUNDRED: Pct4 = 1_000_000;

function reduce(nominal: Pct4, pRed: Pct4): ClassRate {
  // nominal ≤ 10^6 and (10^6 − pRed) ≤ 10^6: the product stays a safe integer.
  const p = Math.floor((nominal * (HUNDRED - pRed) + HUNDRED / 2) / HUNDRED);
  return { nominal, pRed, p };
}

export function ratesOfYear(aliquotas: readonly YearRates[], year: number): YearRates | undefined {
  return aliquotas.find((a) => a.ano === year);
}

export function classRates(year: YearRates, c: Pick<ClassTrib, 'pRedIBS' | 'pRedCBS'>): ClassRates {
  return { ibsUf: reduce(year.ibsUf, c.pRedIBS), ibsMun: reduce(year.ibsMun, c.pRedIBS), cbs: reduce(year.cbs, c.pRedCBS) };
}

/** An exempt or immune class (CST 400/410, no gIBSCBS): nothing is due. */
export const ZERO_RATES: ClassRates = { ibsUf: { nominal: 0, pRed: 0, p: 0 }, ibsMun: { nominal: 0, pRed: 0, p: 0 }, cbs: { nominal: 0, pRed: 0, p: 0 } };

/** Pct4 as the request's percent number (9000 → 0.9): exact, 4 decimals at most. */
export const toPercent = (p: Pct4): number => p / 10_000;
