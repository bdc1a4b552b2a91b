import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * IBGE municipality table (data/ibge/municipios.csv, columns codigo_ibge,nome,…,codigo_uf) and UF
 * table (data/ibge/estados.csv). Read once, on first use, like the XSDs: authority data lives in
 * files, not in code.
 */
export interface Municipality {
  codigo: string;
  nome: string;
  uf: string;
}

const DATA = fileURLToPath(new URL('../../data/ibge/', import.meta.url));

let byCode: Map<string, Municipality> | undefined;
let ufByCode: Map<string, string> | undefined;

function splitCsv(text: string): string[][] {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/).filter(Boolean).slice(1).map((l) => l.split(','));
}

function load(): Map<string, Municipality> {
  if (byCode) return byCode;
  ufByCode = new Map(splitCsv(readFileSync(`${DATA}estados.csv`, 'utf8')).map((r) => [r[0]!, r[1]!]));
  const map = new Map<string, Municipality>();
  for (const r of splitCsv(readFileSync(`${DATA}municipios.csv`, 'utf8'))) {
    const uf = ufByCode.get(r[5]!);
    if (!uf) throw new Error(`municipios.csv: unknown codigo_uf ${r[5]} for ${r[0]}`);
    map.set(r[0]!, { codigo: r[0]!, nome: r[1]!, uf });
  }
  byCode = map;
  return map;
}

export function municipality(codigo: string): Municipality | undefined {
  return load().get(codigo);
}

/** The 27 UF abbreviations. */
export function ufList(): string[] {
  load();
  return [...ufByCode!.values()].sort();
}

/** The capital of each UF is flagged in the table; used by the lookup simulator. */
export function anyMunicipalityOf(uf: string): Municipality | undefined {
  for (const m of load().values()) if (m.uf === uf) return m;
  return undefined;
}
