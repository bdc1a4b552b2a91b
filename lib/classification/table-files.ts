import { parse } from 'csv-parse/sync';
import { findUnstorableText } from '../http/unstorable-text.js';
import type { AnnexItem, ClassTable, ClassTrib, CstInfo, Pct4, YearRates } from './types.js';

/**
 * Reads one version of the assisted-taxation tables from the files the operator loads (the same
 * layout as data/classification/, see its README): the cClassTrib table and the CST table as
 * published by the Portal Nacional da NF-e (converted to CSV), the LC 214 annexes' NCM lists
 * (JSON) and the IBS/CBS rates per year (CSV). A version is taken whole or refused: every bad line
 * of every file is reported at once, and nothing is returned unless all of them are good.
 *
 * Rates: the CBS rate of a year comes from the official table when given (`aliquotasCbs`: the
 * Portal Nacional da NF-e's Tabela_Aliquotas_CBS, "Ano,Alíquota"; a year "aguarda legislação" has
 * none). No official IBS table exists, so `aliquotas` (ano,cbs,ibsUf,ibsMun,fonte) carries the IBS
 * per year from the law, and a `cbs` only for a year the official table does not price; a `cbs`
 * that contradicts the official one refuses the version.
 */
export interface TableFiles {
  versao: string;
  cclasstrib: string;
  cst: string;
  anexos: string;
  aliquotas: string;
  aliquotasCbs?: string;
}

export interface FileError {
  arquivo: keyof Omit<TableFiles, 'versao'>;
  linha?: number;
  motivo: string;
}

export type ParsedTables = { ok: true; table: ClassTable } | { ok: false; erros: FileError[] };

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI', 'XVII', 'XVIII', 'XIX', 'XX'];
const ISO_DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const NCM_PREFIX = /^\d{2,8}$/;

/** A non-negative decimal string ("60", "0.009") times 10^scale, exactly; null when it is not one. */
export function scaledDecimal(text: string, scale: number): number | null {
  const m = /^(\d{1,7})(?:[.,](\d+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > scale) return null;
  return Number(m[1]) * 10 ** scale + (frac ? Number(frac.padEnd(scale, '0')) : 0);
}

/** Percent column ("60" = 60 %) as Pct4. */
const percent = (text: string): Pct4 | null => scaledDecimal(text, 4);
/** Fraction column ("0.009" = 0.9 %) as Pct4: the fraction × 100 × 10^4. */
const fraction = (text: string): Pct4 | null => scaledDecimal(text, 6);

interface CsvRow { line: number; cells: Record<string, string> }

function readCsv(text: string, arquivo: FileError['arquivo'], erros: FileError[]): CsvRow[] {
  try {
    const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, relax_column_count: true, info: true }) as { record: Record<string, string>; info: { lines: number } }[];
    return records.map((r) => ({ line: r.info.lines, cells: r.record }));
  } catch (err) {
    erros.push({ arquivo, motivo: `CSV ilegível: ${(err as Error).message.slice(0, 200)}` });
    return [];
  }
}

function required(row: CsvRow, columns: string[], arquivo: FileError['arquivo'], erros: FileError[]): boolean {
  const missing = columns.filter((c) => row.cells[c] === undefined);
  if (missing.length) erros.push({ arquivo, linha: row.line, motivo: `colunas ausentes: ${missing.join(', ')}` });
  return !missing.length;
}

/**
 * The group flags of the cClassTrib table (publication 2026-06-01): a 1 says the item of that
 * class carries the group. Required, so a table without them is refused rather than read as
 * "no group demanded"; any further `ind_g*` column a later publication adds is read the same way.
 */
export const CLASS_GROUP_FLAGS = ['ind_gTribRegular', 'ind_gCredPresOper', 'ind_gMonoPadrao', 'ind_gMonoReten', 'ind_gMonoRet', 'ind_gMonoDif', 'ind_gpBioDiferenca', 'ind_gEstornoCred'];
const CLASS_COLUMNS = ['CST-IBS/CBS', 'cClassTrib', 'Nome cClassTrib', 'LC 214/25', 'pRedIBS', 'pRedCBS', 'dIniVig', 'dFimVig', 'indNFe', 'indNFCe', 'ANEXO', ...CLASS_GROUP_FLAGS];

/** The groups a class row demands (`ind_gX` = 1 → "gX"); a flag that is not 0 or 1 is a bad line. */
function groupFlags(cells: Record<string, string>, bad: (motivo: string) => void): string[] {
  const grupos: string[] = [];
  for (const [column, value] of Object.entries(cells)) {
    if (!column.startsWith('ind_g')) continue;
    const v = (value ?? '').trim();
    if (!/^[01]$/.test(v)) bad(`${column} deve ser 0 ou 1`);
    else if (v === '1') grupos.push(column.slice(4));
  }
  return grupos;
}

function readClasses(text: string, erros: FileError[]): ClassTrib[] {
  const out: ClassTrib[] = [];
  const seen = new Set<string>();
  for (const row of readCsv(text, 'cclasstrib', erros)) {
    if (!required(row, CLASS_COLUMNS, 'cclasstrib', erros)) continue;
    const c = row.cells;
    const bad = (motivo: string) => erros.push({ arquivo: 'cclasstrib', linha: row.line, motivo });
    const cClassTrib = c.cClassTrib!.trim();
    const cst = c['CST-IBS/CBS']!.trim();
    const pRedIBS = percent(c.pRedIBS!);
    const pRedCBS = percent(c.pRedCBS!);
    const anexoNum = c.ANEXO!.trim();
    if (!/^\d{6}$/.test(cClassTrib)) { bad(`cClassTrib inválido: "${cClassTrib}"`); continue; }
    if (seen.has(cClassTrib)) { bad(`cClassTrib ${cClassTrib} repetido`); continue; }
    seen.add(cClassTrib);
    if (!/^\d{3}$/.test(cst)) bad(`CST inválido: "${cst}"`);
    else if (cClassTrib.slice(0, 3) !== cst) bad(`cClassTrib ${cClassTrib} não pertence ao CST ${cst}`);
    if (pRedIBS === null || pRedIBS > 1_000_000) bad(`pRedIBS inválido: "${c.pRedIBS}"`);
    if (pRedCBS === null || pRedCBS > 1_000_000) bad(`pRedCBS inválido: "${c.pRedCBS}"`);
    for (const f of ['indNFe', 'indNFCe']) if (!/^[01]$/.test(c[f]!.trim())) bad(`${f} deve ser 0 ou 1`);
    if (!ISO_DAY.test(c.dIniVig!.trim())) bad(`dIniVig inválida: "${c.dIniVig}"`);
    if (c.dFimVig!.trim() && !ISO_DAY.test(c.dFimVig!.trim())) bad(`dFimVig inválida: "${c.dFimVig}"`);
    if (anexoNum && !/^\d{1,6}$/.test(anexoNum)) bad(`ANEXO inválido: "${anexoNum}"`);
    // ANEXO holds the LC 214 annex number (1-17) for goods and service lists; larger values are
    // article references of the NFS-e tables and tie the class to no NCM list.
    const n = Number(anexoNum);
    const grupos = groupFlags(c, bad);
    out.push({
      cClassTrib, cst, nome: c['Nome cClassTrib']!.trim(), artigo: c['LC 214/25']!.trim(),
      anexo: anexoNum && n >= 1 && n <= ROMAN.length ? ROMAN[n - 1]! : null,
      pRedIBS: pRedIBS ?? 0, pRedCBS: pRedCBS ?? 0, indNFe: c.indNFe!.trim() === '1', indNFCe: c.indNFCe!.trim() === '1', grupos,
      vigenciaInicio: c.dIniVig!.trim(), vigenciaFim: c.dFimVig!.trim() || null,
    });
  }
  if (!out.length && !erros.some((e) => e.arquivo === 'cclasstrib')) erros.push({ arquivo: 'cclasstrib', motivo: 'tabela sem classes' });
  return out;
}

/** The CST table ends with a legend ("Legenda:", "0 = Não é permitido"): rows without a CST code are not data. */
function readCsts(text: string, erros: FileError[]): CstInfo[] {
  const out: CstInfo[] = [];
  for (const row of readCsv(text, 'cst', erros)) {
    const cst = (row.cells['CST-IBS/CBS'] ?? '').trim();
    if (!cst) continue;
    if (!/^\d{3}$/.test(cst)) { erros.push({ arquivo: 'cst', linha: row.line, motivo: `CST inválido: "${cst}"` }); continue; }
    const grupos: string[] = [];
    for (const [column, value] of Object.entries(row.cells)) {
      const name = column.replace(/^ind_\s*/, '').trim();
      if (!column.startsWith('ind_')) continue;
      if (!/^[01]$/.test(value.trim())) { erros.push({ arquivo: 'cst', linha: row.line, motivo: `${column} deve ser 0 ou 1` }); continue; }
      if (value.trim() === '1') grupos.push(name);
    }
    out.push({ cst, descricao: (row.cells['Descrição CST-IBS/CBS'] ?? '').trim(), grupos });
  }
  if (!out.length && !erros.some((e) => e.arquivo === 'cst')) erros.push({ arquivo: 'cst', motivo: 'tabela sem CST' });
  return out;
}

function readAnnexes(text: string, erros: FileError[]): AnnexItem[] {
  let raw: unknown;
  try { raw = JSON.parse(text); } catch (err) {
    erros.push({ arquivo: 'anexos', motivo: `JSON ilegível: ${(err as Error).message.slice(0, 200)}` });
    return [];
  }
  if (!Array.isArray(raw) || !raw.length) { erros.push({ arquivo: 'anexos', motivo: 'esperada uma lista de itens de anexo' }); return []; }
  const out: AnnexItem[] = [];
  raw.forEach((e: any, i) => {
    // "linha" here is the entry's position (1-based) in the list.
    const bad = (motivo: string) => erros.push({ arquivo: 'anexos', linha: i + 1, motivo });
    if (!e || typeof e !== 'object') return bad('item não é um objeto');
    // A JSON escape gives what Postgres cannot store (the version would fail at insert, a 500).
    if (findUnstorableText(e) !== null) return bad('texto com caractere não permitido (U+0000 ou surrogate UTF-16 isolado)');
    const prefixes = (v: unknown, name: string): string[] | null => {
      if (!Array.isArray(v) || v.some((p) => typeof p !== 'string' || !NCM_PREFIX.test(p))) { bad(`${name} deve ser uma lista de prefixos de NCM (2-8 dígitos)`); return null; }
      return v as string[];
    };
    const incluidos = prefixes(e.ncm_incluidos, 'ncm_incluidos');
    const excecoes = prefixes(e.ncm_excecoes ?? [], 'ncm_excecoes');
    if (typeof e.anexo !== 'string' || !ROMAN.includes(e.anexo)) return bad(`anexo inválido: ${JSON.stringify(e.anexo)}`);
    if (!incluidos || !excecoes) return undefined;
    out.push({ anexo: e.anexo, item: String(e.item ?? ''), descricao: String(e.descricao ?? ''), incluidos, excecoes });
    return undefined;
  });
  return out;
}

/** What the official CBS table says (file name as loaded, for `fonte`): per year, the rate or none. */
interface OfficialCbs { fonte: string; byYear: Map<number, Pct4 | null> }

/**
 * The official CBS table (Tabela_Aliquotas_CBS_*.xlsx as CSV): a title line ("Aliquota da CBS"),
 * the header "Ano,Alíquota", then one year a line; a rate that is not a number ("aguarda
 * legislação") says the year has no CBS rate yet.
 */
function readOfficialCbs(text: string, erros: FileError[]): OfficialCbs {
  const byYear = new Map<number, Pct4 | null>();
  let lines: string[][] = [];
  try { lines = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][]; } catch (err) {
    erros.push({ arquivo: 'aliquotasCbs', motivo: `CSV ilegível: ${(err as Error).message.slice(0, 200)}` });
    return { fonte: '', byYear };
  }
  const header = lines.findIndex((l) => (l[0] ?? '').trim() === 'Ano');
  if (header < 0) { erros.push({ arquivo: 'aliquotasCbs', motivo: 'cabeçalho "Ano,Alíquota" ausente' }); return { fonte: '', byYear }; }
  lines.slice(header + 1).forEach((l, i) => {
    const ano = (l[0] ?? '').trim();
    const rate = (l[1] ?? '').trim();
    if (!/^\d{4}$/.test(ano)) return erros.push({ arquivo: 'aliquotasCbs', linha: header + i + 2, motivo: `ano inválido: "${ano}"` });
    const value = /^[\d.,]+$/.test(rate) ? fraction(rate) : null;
    if (/^[\d.,]+$/.test(rate) && (value === null || value > 1_000_000)) return erros.push({ arquivo: 'aliquotasCbs', linha: header + i + 2, motivo: `alíquota inválida: "${rate}" (fração: 0.009 = 0,9 %)` });
    byYear.set(Number(ano), value);
    return undefined;
  });
  return { fonte: 'CBS: tabela oficial de alíquotas da CBS (Portal Nacional da NF-e, Tabela_Aliquotas_CBS)', byYear };
}

function readRates(text: string, official: OfficialCbs | null, erros: FileError[]): YearRates[] {
  const out: YearRates[] = [];
  for (const row of readCsv(text, 'aliquotas', erros)) {
    if (!required(row, official ? ['ano', 'ibsUf', 'ibsMun'] : ['ano', 'cbs', 'ibsUf', 'ibsMun'], 'aliquotas', erros)) continue;
    const c = row.cells;
    const bad = (motivo: string) => erros.push({ arquivo: 'aliquotas', linha: row.line, motivo });
    if (!/^\d{4}$/.test(c.ano!.trim())) { bad(`ano inválido: "${c.ano}"`); continue; }
    const ano = Number(c.ano);
    const sentCbs = (c.cbs ?? '').trim();
    const values = { cbs: sentCbs ? fraction(sentCbs) : official ? 0 : null, ibsUf: fraction(c.ibsUf!), ibsMun: fraction(c.ibsMun!) };
    const wrong = Object.entries(values).filter(([, v]) => v === null || v > 1_000_000).map(([k]) => k);
    if (wrong.length) { bad(`alíquota inválida em ${wrong.join(', ')} (fração: 0.009 = 0,9 %)`); continue; }
    const fonte = (c.fonte ?? '').trim();
    const officialCbs = official?.byYear.get(ano) ?? null;
    if (!official || (officialCbs === null && sentCbs)) {
      // No official rate for the year: the hand-written one stands, and its `fonte` says where it comes from.
      out.push({ ano, cbs: values.cbs!, ibsUf: values.ibsUf!, ibsMun: values.ibsMun!, fonte });
      continue;
    }
    if (officialCbs === null) { bad(`ano ${ano} sem alíquota da CBS: a tabela oficial não a traz e a coluna cbs está vazia`); continue; }
    if (sentCbs && values.cbs !== officialCbs) { bad(`cbs ${sentCbs} diverge da tabela oficial da CBS (${officialCbs / 1_000_000}) para ${ano}`); continue; }
    out.push({ ano, cbs: officialCbs, ibsUf: values.ibsUf!, ibsMun: values.ibsMun!, fonte: [official.fonte, fonte].filter(Boolean).join('; ') });
  }
  if (!out.length && !erros.some((e) => e.arquivo === 'aliquotas')) erros.push({ arquivo: 'aliquotas', motivo: 'nenhum ano com alíquotas' });
  return out;
}

/**
 * The first line of a CSV holding U+0000, which Postgres text and jsonb cannot store (the version
 * would fail at insert, a 500). The files arrive as base64, past the JSON body's own screening
 * (lib/http/unstorable-text.ts); decoded as UTF-8 they hold no lone surrogate.
 */
function nulCharacter(text: string | undefined, arquivo: FileError['arquivo'], erros: FileError[]): void {
  const at = text?.indexOf('\u0000') ?? -1;
  if (at >= 0) erros.push({ arquivo, linha: text!.slice(0, at).split('\n').length, motivo: 'caractere nulo (U+0000)' });
}

export function parseTableFiles(files: TableFiles): ParsedTables {
  const erros: FileError[] = [];
  for (const arquivo of ['cclasstrib', 'cst', 'aliquotas', 'aliquotasCbs'] as const) nulCharacter(files[arquivo], arquivo, erros);
  const classes = readClasses(files.cclasstrib, erros);
  const csts = readCsts(files.cst, erros);
  const anexos = readAnnexes(files.anexos, erros);
  const official = files.aliquotasCbs !== undefined ? readOfficialCbs(files.aliquotasCbs, erros) : null;
  const aliquotas = readRates(files.aliquotas, official, erros);
  const known = new Set(csts.map((c) => c.cst));
  if (csts.length) {
    const orphan = [...new Set(classes.filter((c) => !known.has(c.cst)).map((c) => c.cst))];
    if (orphan.length) erros.push({ arquivo: 'cst', motivo: `CST usados na tabela cClassTrib e ausentes da tabela de CST: ${orphan.join(', ')}` });
  }
  if (erros.length) return { ok: false, erros };
  return { ok: true, table: { versao: files.versao, classes, csts, anexos, aliquotas } };
}
