import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

/**
 * Descriptions the NFS-e carries next to the DPS codes (xTribNac, xNBS), from the national service
 * list and the NBS of Anexo B (data/nfse/, copied from shared/data/nfse). Loaded once.
 */
const DIR = fileURLToPath(new URL('../../../data/nfse/', import.meta.url));

let tribNac: Map<string, string> | null = null;
let nbs: Map<string, string> | null = null;

function table(file: string, key: (row: string[]) => string | undefined, text: (row: string[]) => string | undefined): Map<string, string> {
  const rows = parse(readFileSync(DIR + file), { relax_column_count: true }) as string[][];
  const map = new Map<string, string>();
  for (const row of rows.slice(1)) {
    const k = key(row);
    const t = text(row);
    if (k && t) map.set(k, t.trim());
  }
  return map;
}

/** Description of a cTribNac (6 digits), or undefined when the national list has no such code. */
export function tribNacDescription(cTribNac: string): string | undefined {
  tribNac ??= table('anexo_b_lista_servico_nacional_v1.01-20260122.csv', (r) => (/^\d{6}$/.test(r[0] ?? '') ? r[0] : undefined), (r) => r[4]);
  return tribNac.get(cTribNac);
}

/** Description of an NBS code as the DPS writes it (9 digits, e.g. 115021000 for 1.1502.10.00). */
export function nbsDescription(cNBS: string): string | undefined {
  nbs ??= table('anexo_b_nbs2_v1.01-20260122.csv', (r) => {
    const digits = (r[0] ?? '').replace(/\D/g, '');
    return digits.length === 9 ? digits : undefined;
  }, (r) => r[1]);
  return nbs.get(cNBS);
}
