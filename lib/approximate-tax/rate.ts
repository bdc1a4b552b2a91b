import { percentOf } from '../money.js';

/**
 * Approximate tax burden rates of Lei 12.741/2012 ("De Olho no Imposto"): per NCM and UF, a federal
 * rate for national goods, another for imported goods, a state rate and a municipal rate, each
 * valid over a date range and published with a version, a key and a source (the IBPT table is the
 * usual source; Decreto 8.264/2014 art. 2 allows any institution of recognized standing).
 */

/** A percentage scaled by 10^4: 13.45 % is 134500n. Tables print 2 decimals; 4 are accepted. */
export type Percent4 = bigint;

export const PERCENT4_SCALE = 10_000n;

/** One NCM line of a table, for one UF. Dates are ISO calendar days (YYYY-MM-DD), inclusive. */
export interface ApproximateTaxRate {
  uf: string;
  /** 8-digit NCM. */
  ncm: string;
  /** Tariff exception (Ex-TIPI) of the line; '' for the NCM's base line. */
  ex: string;
  descricao: string;
  nacionalFederal: Percent4;
  importadosFederal: Percent4;
  estadual: Percent4;
  municipal: Percent4;
  vigenciaInicio: string;
  vigenciaFim: string;
  versao: string;
  chave: string;
  fonte: string;
}

/**
 * Goods origin (orig, table A of the ICMS CST) whose federal burden is the imported rate: the
 * foreign origins 1, 2, 6 and 7. Origins 0, 3, 4, 5 and 8 are national goods, whatever their
 * import content.
 */
const FOREIGN_ORIGINS: ReadonlySet<number> = new Set([1, 2, 6, 7]);

export function isImportedOrigin(origem: number): boolean {
  return FOREIGN_ORIGINS.has(origem);
}

/** The federal rate that applies to goods of this origin. */
export function federalRateFor(rate: Pick<ApproximateTaxRate, 'nacionalFederal' | 'importadosFederal'>, origem: number): Percent4 {
  return isImportedOrigin(origem) ? rate.importadosFederal : rate.nacionalFederal;
}

/**
 * Parses a table percentage ("13.45", "13,45", "0", "7.6000") into Percent4; undefined when it is
 * not a plain non-negative decimal of at most 4 fractional digits and at most 100.
 */
export function parsePercent(text: string): Percent4 | undefined {
  const m = /^(\d{1,3})(?:[.,](\d{1,4}))?$/.exec(text.trim());
  if (!m) return undefined;
  const value = BigInt(m[1]!) * PERCENT4_SCALE + BigInt((m[2] ?? '').padEnd(4, '0'));
  return value <= 100n * PERCENT4_SCALE ? value : undefined;
}

/** Percent4 as a decimal with 2 to 4 fractional digits ("13.45", "7.6125"), for display. */
export function formatPercent(p: Percent4): string {
  const int = p / PERCENT4_SCALE;
  const frac = (p % PERCENT4_SCALE).toString().padStart(4, '0').replace(/0{1,2}$/, '');
  return `${int}.${frac}`;
}

/** `value` (cents) × `rate` %, rounded half away from zero to the cent; exact, in integers. */
export function applyPercent(valueCents: bigint, rate: Percent4): bigint {
  return percentOf(valueCents, rate, 4);
}

/** A rate line as it crosses the transporter (JSON has no bigint): percentages as Percent4 integers. */
export type RateRecord = Omit<ApproximateTaxRate, 'nacionalFederal' | 'importadosFederal' | 'estadual' | 'municipal'> & {
  nacionalFederal: number;
  importadosFederal: number;
  estadual: number;
  municipal: number;
};

export function toRateRecord(r: ApproximateTaxRate): RateRecord {
  return { ...r, nacionalFederal: Number(r.nacionalFederal), importadosFederal: Number(r.importadosFederal), estadual: Number(r.estadual), municipal: Number(r.municipal) };
}

export function fromRateRecord(r: RateRecord): ApproximateTaxRate {
  return { ...r, nacionalFederal: BigInt(r.nacionalFederal), importadosFederal: BigInt(r.importadosFederal), estadual: BigInt(r.estadual), municipal: BigInt(r.municipal) };
}
