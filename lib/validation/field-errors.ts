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
 * Turns fastest-validator failures into the 400 of API.md: `errors[]` with Portuguese messages and,
 * for unknown keys, `details.camposDesconhecidos[]` (one entry per key, even when fastest-validator
 * groups them per object).
 */
export function toValidationError(failures: FvError[], hints?: FieldHints, prefix = ''): DomainError {
  const errors: FieldError[] = [];
  const unknown: UnknownField[] = [];
  for (const f of failures) {
    const objeto = join(prefix, f.field ?? '');
    if (f.type === 'objectStrict') {
      const accepted = String(f.expected ?? '');
      for (const campo of String(f.actual ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
        const caminho = objeto ? `${objeto}.${campo}` : campo;
        const motivo = hintFor(hints, objeto, campo);
        unknown.push({ campo, caminho, objeto, ...(motivo ? { motivo } : {}) });
        errors.push({
          field: caminho,
          message: `Campo desconhecido '${campo}'${objeto ? ` em '${objeto}'` : ''}.${accepted ? ` Campos aceitos: ${accepted}.` : ''}${motivo ? ` ${motivo}` : ''}`,
        });
      }
    } else {
      errors.push({ field: objeto, message: prefix && f.field ? f.message!.replace(`'${f.field}'`, `'${objeto}'`) : f.message ?? 'Valor inválido.' });
    }
  }
  return new DomainError('VALIDATION_ERROR', { errors, ...(unknown.length ? { details: { camposDesconhecidos: unknown } } : {}) });
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
