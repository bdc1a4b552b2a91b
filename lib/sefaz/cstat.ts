import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/**
 * Authority status codes (cStat) and their texts, from data/sefaz/cstat.json (sped-nfe's table).
 * A few entries of that table are not the authority's text; OVERRIDES holds the official wording
 * (MOC 4.00 Anexo I / NT 2018.005 for infRespTec) so the simulator answers as the authority does.
 */
const FILE = resolve(fileURLToPath(new URL('../../data/sefaz/cstat.json', import.meta.url)));

const OVERRIDES: Record<number, string> = {
  // cstat.json prefixes a help text ("No passo 1, mude…") to the authority's message.
  696: 'Rejeição: Operacao com nao contribuinte deve indicar operacao com consumidor final',
  // Missing from cstat.json; NT 2018.005 v1.30, rule 972.
  972: 'Rejeição: Obrigatória as informações do responsável técnico',
};

let texts: Map<number, string> | null = null;

export function cstatText(code: number): string {
  if (!texts) {
    const rows = JSON.parse(readFileSync(FILE, 'utf8')) as { cod: string; msg: string }[];
    texts = new Map(rows.map((r) => [Number(r.cod), r.msg]));
    for (const [c, m] of Object.entries(OVERRIDES)) texts.set(Number(c), m);
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
