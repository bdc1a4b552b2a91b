import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/**
 * Authority status codes (cStat) and their texts, from data/sefaz/cstat.json (sped-nfe's table;
 * rows whose text was not the authority's, and codes missing upstream, were corrected in the file
 * with a `source` naming the MOC/NT rule).
 */
const FILE = resolve(fileURLToPath(new URL('../../data/sefaz/cstat.json', import.meta.url)));

let texts: Map<number, string> | null = null;

export function cstatText(code: number): string {
  if (!texts) {
    const rows = JSON.parse(readFileSync(FILE, 'utf8')) as { cod: string; msg: string }[];
    texts = new Map(rows.map((r) => [Number(r.cod), r.msg]));
  }
  const t = texts.get(code);
  if (t === undefined) throw new Error(`unknown cStat ${code}`);
  return t;
}

/** Authority codes by meaning (MOC 4.00 Anexo I). */
export const AUTHORIZED = new Set([100, 150]);
export const DENIED = new Set([110, 301, 302, 303]);
export const PROCESSING = new Set([103, 105]);
export const CANCELED = new Set([101, 151, 155]);
export const NOT_FOUND = 217;
export const SERVICE_UP = 107;
export const SERVICE_DOWN = new Set([108, 109]);
/** 135 registered, 136 registered without linking, 155 cancellation homologated after the deadline. */
export const EVENT_REGISTERED = new Set([135, 136, 155]);
export const INUT_HOMOLOGATED = 102;
