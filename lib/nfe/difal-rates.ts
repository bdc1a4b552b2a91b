import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatScaled, toScaled, type Scaled } from '../money.js';

/**
 * The rates of the ICMS partilha (EC 87/2015, group ICMSUFDest): each UF's modal internal rate and
 * general FCP (data/icms/aliquotas-internas-uf.json, sources in its README), and the interstate rate
 * of an operation. Rates are exact: scaled by 10^4 (18% = 180000n), the way lib/nfe rules read
 * percentages (3v2-4). The table is read once, on first use, like the XSDs and the IBGE table.
 */
export type Region = 'N' | 'NE' | 'CO' | 'SE' | 'S';
export type InterstateRate = '4.00' | '7.00' | '12.00';

export interface UfRates {
  uf: string;
  region: Region;
  /** Modal internal rate, % scaled by 10^4. */
  pICMS: Scaled;
  /** FCP on goods in general, % scaled by 10^4 (0 where FCP only hits listed goods). */
  pFCP: Scaled;
}

const FILE = fileURLToPath(new URL('../../data/icms/aliquotas-internas-uf.json', import.meta.url));
const REGIONS: ReadonlySet<string> = new Set(['N', 'NE', 'CO', 'SE', 'S']);
const RATE = /^\d{1,2}\.\d{2}$/;

let table: Map<string, UfRates> | undefined;

/** Parses the file, failing loudly on a row that is not a UF with two rates and a region. */
export function parseUfRates(json: string): Map<string, UfRates> {
  const doc = JSON.parse(json) as { ufs?: Record<string, { regiao?: string; pICMS?: string; pFCP?: string }> };
  const out = new Map<string, UfRates>();
  for (const [uf, row] of Object.entries(doc.ufs ?? {})) {
    if (!/^[A-Z]{2}$/.test(uf) || !REGIONS.has(row.regiao ?? '') || !RATE.test(row.pICMS ?? '') || !RATE.test(row.pFCP ?? '')) {
      throw new Error(`aliquotas-internas-uf.json: invalid row ${uf}: ${JSON.stringify(row)}`);
    }
    out.set(uf, { uf, region: row.regiao as Region, pICMS: toScaled(Number(row.pICMS), 4), pFCP: toScaled(Number(row.pFCP), 4) });
  }
  if (out.size !== 27) throw new Error(`aliquotas-internas-uf.json: ${out.size} UFs, expected 27`);
  return out;
}

function load(): Map<string, UfRates> {
  table ??= parseUfRates(readFileSync(FILE, 'utf8'));
  return table;
}

/** The UF's row, or undefined for a code that is not one of the 27 UFs (e.g. EX). */
export function ufRates(uf: string): UfRates | undefined {
  return load().get(uf);
}

/** Goods origins (orig) taxed at 4% between UFs: imported, or made with > 40% imported content. */
const IMPORTED_ORIGINS: ReadonlySet<number> = new Set([1, 2, 3, 8]);
/** Resolução do Senado 22/1989: 7% only from S/SE except ES… */
const SEVEN_FROM: ReadonlySet<string> = new Set(['SP', 'RJ', 'MG', 'PR', 'RS', 'SC']);
/** …to N, NE, CO and ES. */
const sevenTo = (dest: UfRates) => dest.uf === 'ES' || dest.region === 'N' || dest.region === 'NE' || dest.region === 'CO';

/**
 * pICMSInter of an interstate operation (data/icms/README.md): 4% for imported goods (Resolução do
 * Senado 13/2012, origins 1, 2, 3, 8), 7% from S/SE except ES to N/NE/CO/ES, 12% otherwise.
 */
export function interstateRate(originUf: string, dest: UfRates, origem: number): InterstateRate {
  if (IMPORTED_ORIGINS.has(origem)) return '4.00';
  if (SEVEN_FROM.has(originUf) && sevenTo(dest)) return '7.00';
  return '12.00';
}

/** A scaled-by-10^4 rate as the layout prints it (TDec_0302a04): 2 to 4 decimals. */
export function rateText(rate: Scaled): string {
  const text = formatScaled(rate, 4);
  return text.endsWith('00') ? text.slice(0, -2) : text;
}
