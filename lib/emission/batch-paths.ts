/**
 * Batch refusals name the note (API.md, Unknown fields: "In batch the refusal is all-or-nothing
 * and the path includes the note index (`notas[2].items[0]...`)"). Rewrites the 400 of one
 * note's strict validation so every path starts at `notas[i]`; the validator itself stays
 * unaware of batches.
 */
export interface FieldErrorLike {
  field: string;
  message: string;
}

export interface UnknownFieldLike {
  campo: string;
  caminho: string;
  objeto: string;
  motivo?: string;
}

function join(prefix: string, path: string): string {
  if (!path || path === 'body') return prefix;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

export function prefixFieldErrors(errors: readonly FieldErrorLike[], prefix: string): FieldErrorLike[] {
  return errors.map((e) => {
    if (e.field === prefix || e.field.startsWith(`${prefix}.`) || e.field.startsWith(`${prefix}[`)) return e;
    const field = join(prefix, e.field);
    return { field, message: e.field ? e.message.split(`'${e.field}'`).join(`'${field}'`) : e.message };
  });
}

export function prefixUnknownFields(fields: readonly UnknownFieldLike[], prefix: string): UnknownFieldLike[] {
  return fields.map((f) => (f.caminho.startsWith(`${prefix}.`) ? f : { ...f, caminho: join(prefix, f.caminho), objeto: join(prefix, f.objeto) }));
}
