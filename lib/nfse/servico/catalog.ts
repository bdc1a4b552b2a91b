import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

/**
 * The official annexes assisted taxation of services reads (data/nfse/, copied from
 * shared/data/nfse with their sources in data/README.md), loaded once like the XSDs:
 * - Anexo B, national service list: cTribNac (6 digits = LC 116 item, subitem, desdobro) and text;
 * - Anexo VIII, correlation LC 116 item → NBS → indOp → place of IBS incidence → cClassTrib.
 */
const DIR = fileURLToPath(new URL('../../../data/nfse/', import.meta.url));
export const FONTE_LISTA_SERVICO = 'Anexo B do SN NFS-e, lista de serviços nacional v1.01 (2026-01-22)';
export const FONTE_CORRELACAO = 'Anexo VIII RTC (NT 009), correlação item LC 116 × NBS × indOp × cClassTrib v1.01.00';
export const FONTE_NBS = 'Anexo B do SN NFS-e, NBS 2.0 v1.01 (2026-01-22)';

export interface TribNac {
  codigo: string;
  descricao: string;
}

export interface NbsCorrelation {
  /** NBS as the DPS writes it (9 digits). */
  codigo: string;
  descricao: string;
  indOp: string | null;
  localIncidencia: string | null;
  cClassTrib: string | null;
}

export interface ServiceItem {
  /** LC 116 item as the annexes write it: "01.07". */
  item: string;
  descricao: string | null;
  desdobros: TribNac[];
  nbs: NbsCorrelation[];
}

let catalog: Map<string, ServiceItem> | undefined;

const rows = (file: string) => (parse(readFileSync(DIR + file), { relax_column_count: true }) as string[][]).slice(1);

function load(): Map<string, ServiceItem> {
  if (catalog) return catalog;
  const map = new Map<string, ServiceItem>();
  const entry = (item: string) => {
    let e = map.get(item);
    if (!e) map.set(item, (e = { item, descricao: null, desdobros: [], nbs: [] }));
    return e;
  };
  for (const [codigo, item, subitem, desdobro, descricao] of rows('anexo_b_lista_servico_nacional_v1.01-20260122.csv')) {
    if (!item || !subitem || subitem === '00') continue;
    const e = entry(`${item}.${subitem}`);
    if (desdobro === '00' || !codigo) e.descricao = descricao?.trim() ?? null;
    else if (/^\d{6}$/.test(codigo)) e.desdobros.push({ codigo, descricao: (descricao ?? '').trim() });
  }
  // A row with an empty item continues the item above (its further NBS, or only an alternative cClassTrib).
  let current: ServiceItem | undefined;
  for (const [item, , nbs, nbsDescricao, , , indOp, local, cClassTrib] of rows('rtc_anexo_viii_correlacao_lc116_nbs_indop_cclasstrib_v1.01.00.csv')) {
    if (item && /^\d{2}\.\d{2}$/.test(item.trim())) current = entry(item.trim());
    else if (item) current = undefined; // 99.xx.xx: rows outside the LC 116 list
    const digits = (nbs ?? '').replace(/\D/g, '');
    if (!current || digits.length !== 9) continue;
    const first = current.nbs[0];
    current.nbs.push({
      codigo: digits, descricao: (nbsDescricao ?? '').trim(),
      // indOp, incidence and class are written on the item's first row and hold for its NBS list.
      indOp: indOp?.trim() || first?.indOp || null, localIncidencia: local?.trim() || first?.localIncidencia || null, cClassTrib: cClassTrib?.trim() || first?.cClassTrib || null,
    });
  }
  catalog = map;
  return map;
}

/** "1.07", "01.07" or "0107" → "01.07"; undefined when it cannot be an LC 116 item. */
export function normalizeLc116(value: string): string | undefined {
  const m = value.trim().match(/^(\d{1,2})\.?(\d{2})$/);
  return m ? `${m[1]!.padStart(2, '0')}.${m[2]}` : undefined;
}

export function serviceItem(item: string): ServiceItem | undefined {
  return load().get(item);
}
