import type { IbsCbsRate, Icms, Item, ItemIbsCbs } from '../nfe/types.js';
import { isPlainSaleForCsosn } from './operation.js';
import { toPercent, type ClassRate } from './rates.js';
import type { ItemToResolve, ResolutionOrigin, ResolvedClass, SentIbsCbs } from './resolve.js';
import type { GoodsModel, Pct4 } from './types.js';

/**
 * The note side of assisted taxation: what each item of a validated body sent (the request before
 * defaults says whether `cst`/`cClassTrib` were really sent: the schema fills 000/000001), the
 * CSOSN default of Simples issuers, and the body with the resolved groups filled in, ready for the
 * business rules (lib/nfe/check.ts), which then compute vBC and the values as for a sent group.
 */

const RATE_KEYS = ['ibsUf', 'ibsMun', 'cbs'] as const;
const toPct4 = (percent: number | undefined): Pct4 => (percent === undefined ? 0 : Math.round(percent * 10_000));

function rawIbsCbs(rawItem: unknown): Record<string, unknown> | undefined {
  const g = rawItem && typeof rawItem === 'object' ? (rawItem as Record<string, unknown>).ibsCbs : undefined;
  return g && typeof g === 'object' && !Array.isArray(g) ? (g as Record<string, unknown>) : undefined;
}

/**
 * What an item sent: `none`, a `hint` (cClassTrib, maybe cst, no rates) or the `complete` group.
 * A group with one or two rate objects is neither: it is left to IBSCBS_INCOMPLETO (lib/nfe/rules/ibs-cbs.ts),
 * and `null` is returned so resolution skips the item.
 */
export function sentIbsCbs(item: Item, rawItem: unknown): SentIbsCbs | null {
  const group = item.ibsCbs;
  if (!group) return { kind: 'none' };
  const raw = rawIbsCbs(rawItem);
  const cst = typeof raw?.cst === 'string' ? group.cst : undefined;
  const cClassTrib = typeof raw?.cClassTrib === 'string' ? group.cClassTrib : undefined;
  const present = RATE_KEYS.filter((k) => group[k] !== undefined);
  if (present.length === 0) return { kind: 'hint', cClassTrib: group.cClassTrib, ...(cst !== undefined ? { cst } : {}) };
  if (present.length < RATE_KEYS.length) return null;
  const pick = (f: (r: IbsCbsRate) => number | undefined) => Object.fromEntries(RATE_KEYS.map((k) => [k, toPct4(f(group[k] as IbsCbsRate))])) as Record<(typeof RATE_KEYS)[number], Pct4>;
  return {
    kind: 'complete', ...(cClassTrib !== undefined ? { cClassTrib } : {}), ...(cst !== undefined ? { cst } : {}),
    pRedAliq: pick((r) => r.pRedAliq), nominal: pick((r) => r.pNominal ?? r.p),
  };
}

/** The items of a validated body to resolve, paired with the raw request's items. */
export function itemsToResolve(items: readonly Item[], rawItems: unknown): ItemToResolve[] {
  const raw = Array.isArray(rawItems) ? rawItems : [];
  const out: ItemToResolve[] = [];
  items.forEach((item, index) => {
    const sent = sentIbsCbs(item, raw[index]);
    if (sent) out.push({ index, codigo: item.codigo, ncm: item.ncm, cfop: item.cfop, sent });
  });
  return out;
}

/**
 * CSOSN 102 for an item of a Simples issuer (crt 1 or 4) that sent neither `cst` nor `csosn` nor
 * any ICMS value, in a plain sale (lib/classification/operation.ts); a sent one is never replaced.
 */
export function defaultCsosn(icms: Icms, cfop: string, crt: number, model: GoodsModel): '102' | null {
  if (crt !== 1 && crt !== 4) return null;
  const keys = Object.keys(icms).filter((k) => (icms as unknown as Record<string, unknown>)[k] !== undefined);
  if (keys.some((k) => k !== 'origem')) return null;
  return isPlainSaleForCsosn(cfop, crt, model) ? '102' : null;
}

function rateOf(r: ClassRate): IbsCbsRate {
  const rate: IbsCbsRate = { p: toPercent(r.p) };
  if (r.pRed > 0) { rate.pNominal = toPercent(r.nominal); rate.pRedAliq = toPercent(r.pRed); }
  return rate;
}

/** The group of a resolved class: CST, class and the three rates; vBC and values follow the ibsCbs defaults. */
export function groupOf(r: ResolvedClass, sent: ItemIbsCbs | undefined): ItemIbsCbs {
  return {
    ...(sent?.vBC !== undefined ? { vBC: sent.vBC } : {}),
    cst: r.cst, cClassTrib: r.cClassTrib,
    ibsUf: rateOf(r.rates.ibsUf), ibsMun: rateOf(r.rates.ibsMun), cbs: rateOf(r.rates.cbs),
  };
}

/** What the emission's answer says of each resolved item (`tributacaoResolvida[]`, issue 17 item 6). */
export interface ResolvedItemView {
  index: number;
  codigo: string;
  ibsCbs?: {
    cst: string; cClassTrib: string; nome: string; origem: ResolutionOrigin; fonte: string;
    pIBSUF: number; pIBSMun: number; pCBS: number; pRedIBS: number; pRedCBS: number;
  };
  csosn?: string;
}

/** The body with resolved groups and CSOSN filled in (never mutated), and the per-item view. */
export function applyResolution<B extends { items: Item[] }>(body: B, resolved: readonly ResolvedClass[], csosn: ReadonlyMap<number, string>, fonte: string): { body: B; views: ResolvedItemView[] } {
  const byIndex = new Map(resolved.map((r) => [r.index, r]));
  const views: ResolvedItemView[] = [];
  const items = body.items.map((item, index) => {
    const r = byIndex.get(index);
    const c = csosn.get(index);
    if (!r && !c) return item;
    const view: ResolvedItemView = { index, codigo: item.codigo };
    const next: Item = { ...item };
    if (r) {
      next.ibsCbs = groupOf(r, item.ibsCbs);
      view.ibsCbs = {
        cst: r.cst, cClassTrib: r.cClassTrib, nome: r.nome, origem: r.origem, fonte,
        pIBSUF: toPercent(r.rates.ibsUf.p), pIBSMun: toPercent(r.rates.ibsMun.p), pCBS: toPercent(r.rates.cbs.p),
        pRedIBS: toPercent(r.rates.ibsUf.pRed), pRedCBS: toPercent(r.rates.cbs.pRed),
      };
    }
    if (c) { next.icms = { ...item.icms, csosn: c }; view.csosn = c; }
    views.push(view);
    return next;
  });
  return { body: { ...body, items }, views };
}
