import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { SefinMessage } from '../results.js';

/**
 * Sefin's error codes and texts, verbatim from the official rule tables copied into data/sefin/
 * (Anexo VI Leiautes/RN v1.04.00: the reception rules and the DPS/NFS-e business rules). Each row
 * carries a code cell (E + 4 digits) followed by its message; the first row naming a code wins
 * (E1570 appears twice in the annex with two wordings). Loaded once.
 */
const DIR = fileURLToPath(new URL('../../../data/sefin/', import.meta.url));
const FILES = ['rtc_anexo_vi_leiautes_rn_v1.04.00__rn_recepcao_dps.csv', 'rtc_anexo_vi_leiautes_rn_v1.04.00__rn_dps_nfse.csv'];
const CODE = /^E\d{4}$/;

let texts: Map<string, string> | null = null;

function load(): Map<string, string> {
  if (texts) return texts;
  const map = new Map<string, string>();
  for (const file of FILES) {
    const rows = parse(readFileSync(DIR + file), { relax_column_count: true }) as string[][];
    for (const row of rows) {
      for (let i = 0; i < row.length - 1; i++) {
        const code = row[i]!.trim();
        if (CODE.test(code) && !map.has(code)) map.set(code, row[i + 1]!.trim());
      }
    }
  }
  texts = map;
  return map;
}

/** The official text of a rule; an unknown code is our bug and throws. */
export function ruleText(code: string): string {
  const t = load().get(code);
  if (t === undefined) throw new Error(`unknown Sefin rule ${code}`);
  return t;
}

/** One erros[] entry of a rule, with an optional Complemento (what exactly was wrong). */
export function ruleMessage(code: string, complemento?: string): SefinMessage {
  return { codigo: code, descricao: ruleText(code), ...(complemento ? { complemento: complemento.slice(0, 2000) } : {}) };
}
