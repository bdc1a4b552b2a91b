import { CST_WITHOUT_GROUP } from '../nfe/xml/det-ibscbs.js';
import type { AnnexItem, Candidate, ClassTable, ClassTrib, GoodsModel } from './types.js';

/**
 * NCM → candidate IBS/CBS classes (issue 17; data/classification/README.md). No official NCM →
 * cClassTrib table exists: an annex of LC 214/2025 lists NCM codes by prefix (chapter, position,
 * subposition or full code) with exceptions, and a class of the cClassTrib table names the annex
 * it applies to (ANEXO column). So:
 *
 * - an NCM belongs to an annex item when one of its `incluidos` is a prefix of the NCM and none of
 *   its `excecoes` is;
 * - the candidates of an NCM are the full-taxation class 000001, which the law applies to every
 *   good (LC 214 art. 4), plus every class tied to an annex the NCM belongs to. The annex classes
 *   never replace 000001 on their own: each reduction also hinges on facts the NCM does not show
 *   (food "destinados à alimentação humana", devices sold to the public administration, Anvisa
 *   registration), and the annex lists come from a parser, not from the authority. An NCM in an
 *   annex therefore always has several candidates and needs a human decision once (then the
 *   product class memory answers);
 * - only classes the NF-e/NFC-e builder can express are offered: valid on the day, admitted in a
 *   goods document (indNFe or indNFCe), with a CST whose required groups are gIBSCBS and, for a
 *   reduction, gRed (deferral, monophasic, credit transfer… need groups this API does not write).
 */
export const FULL_TAXATION = '000001';
const WRITABLE_GROUPS = new Set(['gIBSCBS', 'gRed']);

export interface CorrelationIndex {
  table: ClassTable;
  /** Included prefix → annex items listing it. */
  byPrefix: Map<string, AnnexItem[]>;
  byClass: Map<string, ClassTrib>;
  /** Annex numeral → the classes tied to it. */
  classesOfAnnex: Map<string, ClassTrib[]>;
  cstGroups: Map<string, Set<string>>;
}

export function indexTable(table: ClassTable): CorrelationIndex {
  const byPrefix = new Map<string, AnnexItem[]>();
  for (const item of table.anexos) {
    for (const p of item.incluidos) {
      const list = byPrefix.get(p);
      if (list) list.push(item); else byPrefix.set(p, [item]);
    }
  }
  const classesOfAnnex = new Map<string, ClassTrib[]>();
  for (const c of table.classes) {
    if (!c.anexo) continue;
    const list = classesOfAnnex.get(c.anexo);
    if (list) list.push(c); else classesOfAnnex.set(c.anexo, [c]);
  }
  return {
    table, byPrefix, classesOfAnnex,
    byClass: new Map(table.classes.map((c) => [c.cClassTrib, c])),
    cstGroups: new Map(table.csts.map((c) => [c.cst, new Set(c.grupos)])),
  };
}

/** The annex items an 8-digit NCM belongs to (prefix rule minus exceptions); none for a 2-digit NCM. */
export function annexItemsOf(index: CorrelationIndex, ncm: string): AnnexItem[] {
  if (!/^\d{8}$/.test(ncm)) return [];
  const found: AnnexItem[] = [];
  for (let len = 2; len <= 8; len++) {
    for (const item of index.byPrefix.get(ncm.slice(0, len)) ?? []) {
      if (found.includes(item)) continue;
      if (item.excecoes.some((e) => ncm.startsWith(e))) continue;
      found.push(item);
    }
  }
  return found;
}

export const validOn = (c: ClassTrib, day: string): boolean => c.vigenciaInicio <= day && (c.vigenciaFim === null || c.vigenciaFim >= day);

export const admittedIn = (c: ClassTrib, model: GoodsModel): boolean => (model === '55' ? c.indNFe : c.indNFCe);

/**
 * The groups a class needs in the item that the builder does not write: the class's own flags of
 * the cClassTrib table (gTribRegular, gCredPresOper, gEstornoCred, gMono…, always unwritten) and
 * its CST's groups other than gIBSCBS/gRed (gDif, gIBSCBSMono, gTransfCred…). The builder writes
 * gIBSCBS, with gRed when the class reduces, or no group at all for CST 400/410 (isenção,
 * imunidade: lib/nfe/xml/det-ibscbs.ts). Empty: the class can be emitted.
 */
export function unfilledGroups(index: CorrelationIndex, c: ClassTrib): string[] {
  const groups = index.cstGroups.get(c.cst);
  // A CST missing from the table cannot be judged: parseTableFiles refuses such a version.
  if (!groups) return ['CST ausente da tabela'];
  // A stored version loaded before the flags were read has no `grupos` (migration 061 fills them).
  const out = [...(c.grupos ?? [])];
  for (const g of groups) if (!WRITABLE_GROUPS.has(g)) out.push(g);
  if (!groups.has('gIBSCBS') && !CST_WITHOUT_GROUP.has(c.cst)) out.push('gIBSCBS');
  if ((c.pRedIBS > 0 || c.pRedCBS > 0) && !groups.has('gRed')) out.push('gRed');
  return out;
}

/** The CST's groups are ones the builder writes (the class's own flags are judged at resolution: CCLASSTRIB_EXIGE_GRUPO). */
export function writable(index: CorrelationIndex, c: ClassTrib): boolean {
  return unfilledGroups(index, { ...c, grupos: [] }).length === 0;
}

export interface NcmCandidates {
  /** Every candidate class of the NCM on the day, in cClassTrib order, for any goods model. */
  classes: ClassTrib[];
  annexItems: AnnexItem[];
}

/** Candidates of an NCM on `day` (ISO); none for a 2-digit NCM (no correlation without the full code). */
export function candidatesOf(index: CorrelationIndex, ncm: string, day: string): NcmCandidates {
  if (!/^\d{8}$/.test(ncm)) return { classes: [], annexItems: [] };
  const annexItems = annexItemsOf(index, ncm);
  const picked = new Map<string, ClassTrib>();
  const full = index.byClass.get(FULL_TAXATION);
  if (full) picked.set(full.cClassTrib, full);
  for (const anexo of new Set(annexItems.map((i) => i.anexo))) {
    for (const c of index.classesOfAnnex.get(anexo) ?? []) picked.set(c.cClassTrib, c);
  }
  const classes = [...picked.values()]
    .filter((c) => validOn(c, day) && (c.indNFe || c.indNFCe) && writable(index, c))
    .sort((a, b) => a.cClassTrib.localeCompare(b.cClassTrib));
  return { classes, annexItems };
}

const percentOf = (p: number) => p / 10_000;

/** The API's view of a candidate, with its legal basis (article, and the annex items that matched). */
export function candidateView(c: ClassTrib, annexItems: readonly AnnexItem[]): Candidate {
  const items = c.anexo ? annexItems.filter((i) => i.anexo === c.anexo).map((i) => i.item) : [];
  const annex = c.anexo ? ` (Anexo ${c.anexo}${items.length ? `, item ${items.join(', ')}` : ''})` : '';
  return {
    cClassTrib: c.cClassTrib, nome: c.nome, cst: c.cst, pRedIBS: percentOf(c.pRedIBS), pRedCBS: percentOf(c.pRedCBS),
    fundamentoLegal: `LC 214/2025${c.artigo ? `, ${c.artigo}` : ''}${annex}`, admitidaNFe: c.indNFe, admitidaNFCe: c.indNFCe,
  };
}
