import type { ValidationError as FvError } from 'fastest-validator';
import { DomainError, type FieldError } from '../errors/index.js';

/** One unknown key, as API.md, Errors > Unknown fields. */
export interface UnknownField {
  campo: string;
  caminho: string;
  objeto: string;
  motivo?: string;
}

/**
 * Hints for keys that exist in the fiscal layout under another name or as an unsupported group.
 * Looked up by `objeto.campo` with array indexes removed (`items[].icms.baseCalculoST`) and then
 * by the bare `campo`.
 */
export type FieldHints = Readonly<Record<string, string>>;

const INDEX = /\[\d+\]/g;

function hintFor(hints: FieldHints | undefined, objeto: string, campo: string): string | undefined {
  if (!hints) return undefined;
  const generic = objeto.replace(INDEX, '[]');
  // Own properties only: a key such as `constructor` must not find Object.prototype's.
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(hints, k) ? hints[k] : undefined);
  return own(generic ? `${generic}.${campo}` : campo) ?? own(campo);
}

/**
 * At most this many entries in `errors[]` and in `details.camposDesconhecidos[]` (issue 23, defect
 * 2): a body with thousands of bad keys used to answer megabytes, which the transporter carried
 * back to the gateway. Past it, `details.totalErros` / `details.totalCamposDesconhecidos` give the
 * full counts, so the integrator knows the list was cut. A client fixes the first 50 and retries.
 */
export const MAX_REPORTED_FIELDS = 50;

/** Full counts when a report holds only the first MAX_REPORTED_FIELDS (batch: summed over notes). */
export interface ReportTotals {
  errors: number;
  unknown: number;
}

/**
 * The 400 VALIDATION_ERROR of API.md from the failures found, cut to MAX_REPORTED_FIELDS per list.
 * `totals` defaults to the lengths given (callers that already cut pass the real counts).
 */
export function boundedValidationError(errors: FieldError[], unknown: UnknownField[], totals: ReportTotals = { errors: errors.length, unknown: unknown.length }): DomainError {
  const details: Record<string, unknown> = {};
  if (unknown.length) details.camposDesconhecidos = unknown.slice(0, MAX_REPORTED_FIELDS);
  if (totals.errors > MAX_REPORTED_FIELDS) details.totalErros = totals.errors;
  if (totals.unknown > MAX_REPORTED_FIELDS) details.totalCamposDesconhecidos = totals.unknown;
  return new DomainError('VALIDATION_ERROR', { errors: errors.slice(0, MAX_REPORTED_FIELDS), ...(Object.keys(details).length ? { details } : {}) });
}

/** The full counts of a VALIDATION_ERROR's data built by boundedValidationError. */
export function reportTotals(data: { errors?: unknown[]; details?: { camposDesconhecidos?: unknown[]; totalErros?: number; totalCamposDesconhecidos?: number } } | undefined): ReportTotals {
  return {
    errors: data?.details?.totalErros ?? data?.errors?.length ?? 0,
    unknown: data?.details?.totalCamposDesconhecidos ?? data?.details?.camposDesconhecidos?.length ?? 0,
  };
}

/**
 * Turns fastest-validator failures into the 400 of API.md: `errors[]` with Portuguese messages and,
 * for unknown keys, `details.camposDesconhecidos[]` (one entry per key, even when fastest-validator
 * groups them per object), both cut to MAX_REPORTED_FIELDS with the full counts.
 */
export function toValidationError(failures: FvError[], hints?: FieldHints, prefix = ''): DomainError {
  const errors: FieldError[] = [];
  const unknown: UnknownField[] = [];
  const totals: ReportTotals = { errors: 0, unknown: 0 };
  for (const f of failures) {
    const objeto = join(prefix, f.field ?? '');
    if (f.type === 'objectStrict') {
      const accepted = String(f.expected ?? '');
      for (const campo of String(f.actual ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
        totals.errors++;
        totals.unknown++;
        // Counted, not built: past the cap an entry costs nothing but the count.
        if (unknown.length >= MAX_REPORTED_FIELDS && errors.length >= MAX_REPORTED_FIELDS) continue;
        const caminho = objeto ? `${objeto}.${campo}` : campo;
        const motivo = hintFor(hints, objeto, campo);
        unknown.push({ campo, caminho, objeto, ...(motivo ? { motivo } : {}) });
        errors.push({
          field: caminho,
          message: `Campo desconhecido '${campo}'${objeto ? ` em '${objeto}'` : ''}.${accepted ? ` Campos aceitos: ${accepted}.` : ''}${motivo ? ` ${motivo}` : ''}`,
        });
      }
    } else {
      totals.errors++;
      if (errors.length >= MAX_REPORTED_FIELDS) continue;
      errors.push({ field: objeto, message: prefix && f.field ? f.message!.replace(`'${f.field}'`, `'${objeto}'`) : f.message ?? 'Valor inválido.' });
    }
  }
  return boundedValidationError(errors, unknown, totals);
}

/**
 * Own keys named like the converters of Object.prototype (`toString`, `valueOf`) anywhere in a
 * JSON value, as unknown fields. No request schema has such a field, and fastest-validator throws
 * a TypeError (instead of reporting) when it prints an array holding such an object in a message,
 * since Array#join then calls the key's value as a function.
 */
export function converterKeys(value: unknown, path = ''): UnknownField[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => converterKeys(v, `${path}[${i}]`));
  const found: UnknownField[] = [];
  for (const [campo, v] of Object.entries(value)) {
    const caminho = path ? `${path}.${campo}` : campo;
    if (campo === 'toString' || campo === 'valueOf') found.push({ campo, caminho, objeto: path });
    else found.push(...converterKeys(v, caminho));
  }
  return found;
}

function join(prefix: string, field: string): string {
  if (!prefix) return field;
  if (!field) return prefix;
  return field.startsWith('[') ? `${prefix}${field}` : `${prefix}.${field}`;
}
