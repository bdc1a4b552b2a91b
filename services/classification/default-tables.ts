import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTableFiles, type TableFiles } from '../../lib/classification/table-files.js';
import type { ClassTable } from '../../lib/classification/types.js';

/**
 * The version shipped in data/classification (copied from the project's reference data; sources in
 * its README), loaded by the classification service when no version exists yet, and by
 * `npm run admin -- import-classificacao` without flags.
 */
const DIR = fileURLToPath(new URL('../../data/classification/', import.meta.url));
export const DEFAULT_VERSION = '2026-06-01';
export const DEFAULT_FILES = {
  cclasstrib: 'cclasstrib_2026-06-01.csv',
  cst: 'cst_ibscbs_2026-06-01.csv',
  anexos: 'lc214_anexos_ncm.json',
  /** IBS per year from the law (no official IBS table); cbs only where the official file has no rate. */
  aliquotas: 'aliquotas_ibscbs.csv',
  /** The official CBS rates (Tabela_Aliquotas_CBS_2026-05-12, Portal Nacional da NF-e), verbatim. */
  aliquotasCbs: 'aliquotas_cbs_2026-05-12.csv',
} as const;

export function defaultTableFiles(): TableFiles {
  const read = (name: string) => readFileSync(`${DIR}${name}`, 'utf8');
  return {
    versao: DEFAULT_VERSION,
    cclasstrib: read(DEFAULT_FILES.cclasstrib), cst: read(DEFAULT_FILES.cst), anexos: read(DEFAULT_FILES.anexos), aliquotas: read(DEFAULT_FILES.aliquotas),
    aliquotasCbs: read(DEFAULT_FILES.aliquotasCbs),
  };
}

export function defaultTable(): ClassTable {
  const parsed = parseTableFiles(defaultTableFiles());
  // The shipped files are part of the build: a bad one is a bug, never a silent empty table.
  if (!parsed.ok) throw new Error(`data/classification is invalid: ${JSON.stringify(parsed.erros.slice(0, 5))}`);
  return parsed.table;
}
