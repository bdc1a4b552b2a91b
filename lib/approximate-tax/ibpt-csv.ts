import { UFS } from '../issuer/schema.js';
import { parsePercent, type ApproximateTaxRate } from './rate.js';

/**
 * Reader of the approximate-tax table in the layout IBPT distributes it ("TabelaIBPTax<UF><versão>.csv"):
 * `;`-separated, one header line `codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;
 * municipal;vigenciainicio;vigenciafim;chave;versao;fonte`, descriptions possibly quoted, decimals
 * with a point or a comma, dates dd/mm/yyyy, encoded in Windows-1252 (older files) or UTF-8.
 * The rows do not carry the UF: it comes from the file name or from the operator.
 *
 * Only `tipo` 0 lines (NCM, goods) are kept: NF-e and NFC-e items are goods. Lines of types 1 (NBS)
 * and 2 (LC 116 services) are counted as ignored. A file is one version of one UF and is taken
 * whole or not at all: any bad line refuses the file, naming the line.
 */

export interface ParsedTable {
  uf: string;
  versao: string;
  fonte: string;
  chave: string;
  /** Earliest start and latest end among the lines (ISO days). */
  vigenciaInicio: string;
  vigenciaFim: string;
  rates: ApproximateTaxRate[];
  /** Lines of other types (NBS, LC 116) left out. */
  ignoradas: number;
}

export interface TableLineError {
  linha: number;
  motivo: string;
}

export type ParseResult =
  | { ok: true; table: ParsedTable }
  | { ok: false; erros: TableLineError[] };

const COLUMNS = ['codigo', 'ex', 'tipo', 'descricao', 'nacionalfederal', 'importadosfederal', 'estadual', 'municipal', 'vigenciainicio', 'vigenciafim', 'chave', 'versao', 'fonte'] as const;
type Column = (typeof COLUMNS)[number];
/** Header spellings seen in published files, mapped to the canonical column. */
const ALIASES: Readonly<Record<string, Column>> = { importadofederal: 'importadosfederal' };
const MAX_ERRORS = 20;
/** Longest version label kept (published ones look like 26.1.A). */
const MAX_VERSAO = 20;
const UF_SET: ReadonlySet<string> = new Set(UFS);

/**
 * Windows-1252 bytes 0x80-0x9F (where it differs from Latin-1). Node 20's TextDecoder decodes the
 * 'windows-1252' label as Latin-1, so these are mapped here; undefined bytes stay as they are.
 */
const CP1252_HIGH = '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F'
  + '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252; without a BOM. */
export function decodeTableText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
      .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The UF in an IBPT file name ("TabelaIBPTaxSP26.1.A.csv" → "SP"), if any. */
export function ufFromFileName(fileName: string | undefined): string | undefined {
  const m = fileName ? /TabelaIBPTax([A-Za-z]{2})/.exec(fileName) : null;
  return m ? m[1]!.toUpperCase() : undefined;
}

/** dd/mm/yyyy (or yyyy-mm-dd) → yyyy-mm-dd, only for a real calendar day. */
export function parseTableDate(text: string): string | undefined {
  const t = text.trim();
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (!m) return undefined;
  const [y, mo, d] = t.includes('/') ? [m[3]!, m[2]!, m[1]!] : [m[1]!, m[2]!, m[3]!];
  const iso = `${y}-${mo}-${d}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** Splits one `;` line; fields may be double-quoted with "" as an escaped quote. Undefined on an open quote. */
export function splitLine(line: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return undefined;
        field += line.slice(i, q);
        if (line[q + 1] === '"') { field += '"'; i = q + 2; continue; }
        i = q + 1;
        break;
      }
      const next = line.indexOf(';', i);
      field += next < 0 ? line.slice(i) : line.slice(i, next);
      fields.push(field);
      if (next < 0) return fields;
      i = next + 1;
    } else {
      const next = line.indexOf(';', i);
      fields.push(next < 0 ? line.slice(i) : line.slice(i, next));
      if (next < 0) return fields;
      i = next + 1;
    }
  }
}

function headerIndex(header: string[]): Record<Column, number> | string {
  const index: Partial<Record<Column, number>> = {};
  header.forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    const column = (COLUMNS as readonly string[]).includes(name) ? (name as Column) : ALIASES[name];
    if (column && index[column] === undefined) index[column] = i;
  });
  const missing = COLUMNS.filter((c) => index[c] === undefined);
  return missing.length ? `cabeçalho sem as colunas ${missing.join(', ')}` : (index as Record<Column, number>);
}

/**
 * Parses a whole table file. `uf` may come from the operator or from `fileName`; when both are
 * given they must agree.
 */
export function parseIbptTable(text: string, opts: { uf?: string; fileName?: string }): ParseResult {
  const fromName = ufFromFileName(opts.fileName);
  const uf = (opts.uf ?? fromName)?.toUpperCase();
  if (!uf) return { ok: false, erros: [{ linha: 0, motivo: 'UF não informada e ausente do nome do arquivo (TabelaIBPTax<UF>…)' }] };
  if (!UF_SET.has(uf)) return { ok: false, erros: [{ linha: 0, motivo: `UF desconhecida: ${uf}` }] };
  if (opts.uf && fromName && fromName !== uf) return { ok: false, erros: [{ linha: 0, motivo: `UF ${uf} diverge da UF ${fromName} do nome do arquivo` }] };

  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitLine(lines[0] ?? '');
  const index = header ? headerIndex(header) : 'cabeçalho ilegível';
  if (typeof index === 'string') return { ok: false, erros: [{ linha: 1, motivo: index }] };

  const erros: TableLineError[] = [];
  const rates: ApproximateTaxRate[] = [];
  const seen = new Set<string>();
  let ignoradas = 0;
  let versao: string | undefined;
  let inicio: string | undefined;
  let fim: string | undefined;
  const fail = (linha: number, motivo: string) => { if (erros.length < MAX_ERRORS) erros.push({ linha, motivo }); };

  for (let n = 1; n < lines.length; n++) {
    const line = lines[n]!;
    if (!line.trim()) continue;
    const linha = n + 1;
    // Postgres text columns cannot hold U+0000 (a 500 at insert otherwise); JSON bodies are screened
    // by lib/http/unstorable-text.ts, but this file arrives as base64.
    if (line.includes('\u0000')) { fail(linha, 'caractere nulo (U+0000) na linha'); continue; }
    const f = splitLine(line);
    if (!f) { fail(linha, 'aspas sem fechamento'); continue; }
    const get = (c: Column) => (f[index[c]] ?? '').trim();
    const tipo = get('tipo');
    if (tipo === '1' || tipo === '2') { ignoradas++; continue; }
    if (tipo !== '0') { fail(linha, `tipo desconhecido: "${tipo}"`); continue; }
    const ncm = get('codigo');
    if (!/^\d{8}$/.test(ncm)) { fail(linha, `NCM inválido: "${ncm}"`); continue; }
    const ex = get('ex');
    if (!/^\d{0,3}$/.test(ex)) { fail(linha, `exceção tarifária inválida: "${ex}"`); continue; }
    const pct = {
      nacionalFederal: parsePercent(get('nacionalfederal')),
      importadosFederal: parsePercent(get('importadosfederal')),
      estadual: parsePercent(get('estadual')),
      municipal: parsePercent(get('municipal')),
    };
    const badPct = Object.entries(pct).find(([, v]) => v === undefined);
    if (badPct) { fail(linha, `percentual inválido em ${badPct[0]}`); continue; }
    const vigenciaInicio = parseTableDate(get('vigenciainicio'));
    const vigenciaFim = parseTableDate(get('vigenciafim'));
    if (!vigenciaInicio || !vigenciaFim) { fail(linha, 'vigência inválida (esperado dd/mm/aaaa)'); continue; }
    if (vigenciaFim < vigenciaInicio) { fail(linha, 'vigência termina antes de começar'); continue; }
    const rowVersao = get('versao');
    if (!rowVersao) { fail(linha, 'versão ausente'); continue; }
    if (rowVersao.length > MAX_VERSAO) { fail(linha, `versão com mais de ${MAX_VERSAO} caracteres`); continue; }
    if (versao !== undefined && rowVersao !== versao) { fail(linha, `versão ${rowVersao} diverge da versão ${versao} das linhas anteriores`); continue; }
    versao = rowVersao;
    const key = `${ncm}/${ex}`;
    if (seen.has(key)) { fail(linha, `NCM ${ncm}${ex ? ` ex ${ex}` : ''} repetido`); continue; }
    seen.add(key);
    if (!inicio || vigenciaInicio < inicio) inicio = vigenciaInicio;
    if (!fim || vigenciaFim > fim) fim = vigenciaFim;
    rates.push({
      uf, ncm, ex, descricao: get('descricao').slice(0, 500),
      nacionalFederal: pct.nacionalFederal!, importadosFederal: pct.importadosFederal!, estadual: pct.estadual!, municipal: pct.municipal!,
      vigenciaInicio, vigenciaFim, versao: rowVersao, chave: get('chave'), fonte: get('fonte'),
    });
  }
  if (erros.length) return { ok: false, erros };
  if (!rates.length) return { ok: false, erros: [{ linha: 0, motivo: 'nenhuma linha de NCM (tipo 0) na tabela' }] };
  const first = rates[0]!;
  return { ok: true, table: { uf, versao: versao!, fonte: first.fonte, chave: first.chave, vigenciaInicio: inicio!, vigenciaFim: fim!, rates, ignoradas } };
}
