import { DomainError, type FieldError } from '../errors/index.js';
import { sharedValidator } from '../validation/validator.js';
import { toValidationError } from '../validation/field-errors.js';
import type { IssuerProfile, IssuerRecord } from './model.js';
import { checkIssuerValues, withMunicipalityName } from './rules.js';
import { CLEARABLE_FIELDS, patchIssuerSchema } from './schema.js';

/**
 * PATCH /v1/companies/{id} semantics (API.md, Endpoints > Issuers): an absent key keeps the value,
 * `null` keeps it, `""` clears it; `sandbox` and `ambienteFiscal` equal to the current value are
 * ignored and a different value refuses 422 AMBIENTE_IMUTAVEL; every other non-null value passes
 * the same format, length and check-digit rules as creation (400 with errors[]). The same rules
 * apply inside `endereco`; `endereco: ""` clears the whole address.
 */
export interface PatchResult {
  cnpj: string;
  profile: IssuerProfile;
  /** Keys the request changed (for the updated_at decision and logs). */
  changed: string[];
}

let compiled: ReturnType<ReturnType<typeof sharedValidator>['compile']> | undefined;
function validate(value: Record<string, unknown>) {
  compiled ??= sharedValidator().compile({ $$root: false, ...patchIssuerSchema } as any);
  return compiled(value);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function applyIssuerPatch(current: IssuerRecord, body: Record<string, unknown>): PatchResult {
  const errors: FieldError[] = [];
  const set: Record<string, unknown> = {};
  const clear: string[] = [];

  const split = (src: Record<string, unknown>, prefix: string, into: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(src)) {
      const path = prefix + key;
      if (value === null || value === undefined) continue;
      if (value === '') {
        if (CLEARABLE_FIELDS.has(path)) clear.push(path);
        else errors.push({ field: path, message: `O campo '${path}' não pode ser limpo com "".` });
        continue;
      }
      if (path === 'endereco' && isPlainObject(value)) {
        const nested: Record<string, unknown> = {};
        split(value, 'endereco.', nested);
        into.endereco = nested;
        continue;
      }
      into[key] = value;
    }
  };
  split(body, '', set);

  const result = validate(set);
  if (result !== true || errors.length) {
    const err = toValidationError(result === true ? [] : (result as any[]));
    (err.data!.errors as FieldError[]).push(...errors);
    throw err;
  }

  const setEndereco = (set.endereco ?? {}) as Record<string, string>;
  const profile: IssuerProfile = { ...current.profile, endereco: { ...current.profile.endereco } };
  for (const path of clear) {
    if (path === 'endereco') profile.endereco = {};
    else if (path.startsWith('endereco.')) profile.endereco[path.slice(9) as keyof IssuerProfile['endereco']] = null;
    else (profile as any)[path] = null;
  }
  for (const [key, value] of Object.entries(set)) {
    if (key === 'endereco' || key === 'cnpj' || key === 'ambienteFiscal' || key === 'sandbox') continue;
    (profile as any)[key] = value;
  }
  Object.assign(profile.endereco, setEndereco);
  if (setEndereco.codigoMunicipio && !setEndereco.municipio) {
    // A new code without a name: the old name would now be wrong; take the IBGE one.
    profile.endereco = withMunicipalityName({ ...profile.endereco, municipio: null });
  }

  const touchesPlace = 'uf' in setEndereco || 'codigoMunicipio' in setEndereco;
  const semantic = checkIssuerValues({ cnpj: set.cnpj as string | undefined, endereco: touchesPlace ? profile.endereco : null });
  if (semantic.length) throw toValidationErrorFrom(semantic);

  if (set.ambienteFiscal !== undefined && set.ambienteFiscal !== current.ambienteFiscal) {
    throw new DomainError('AMBIENTE_IMUTAVEL', { ambienteFiscal: current.ambienteFiscal }, `ambienteFiscal não pode ser alterado por esta rota (atual: ${current.ambienteFiscal}).`);
  }
  if (set.sandbox !== undefined && set.sandbox !== current.sandbox) {
    throw new DomainError('AMBIENTE_IMUTAVEL', { sandbox: current.sandbox }, `sandbox não pode ser alterado por esta rota (atual: ${current.sandbox}).`);
  }

  const changed = [...clear, ...Object.keys(set).filter((k) => k !== 'endereco'), ...Object.keys(setEndereco).map((k) => `endereco.${k}`)];
  return { cnpj: (set.cnpj as string | undefined) ?? current.cnpj, profile, changed };
}

function toValidationErrorFrom(errors: FieldError[]): DomainError {
  return new DomainError('VALIDATION_ERROR', { errors });
}
