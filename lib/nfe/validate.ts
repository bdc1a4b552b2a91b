import type { ValidationError as FvError } from 'fastest-validator';
import { validationError, type FieldError } from '../errors/index.js';
import { toValidationError, type FieldHints } from '../validation/field-errors.js';
import { sharedValidator } from '../validation/validator.js';
import { NFCE_FIELD_HINTS, NFE_BATCH_FIELD_HINTS, NFE_FIELD_HINTS } from './field-hints.js';
import { toDhSaiEnt } from './rules/saida-entrada.js';
import { nfceBodySchema, nfeBatchBodySchema, nfeBodySchema } from './schema.js';
import type { Item, NfceBody, NfeBody, Pagamento } from './types.js';
import { withoutNulls } from './without-nulls.js';

/**
 * Strict validation of the emission bodies (API.md, Errors > Unknown fields, Precision rules):
 * the schema of lib/nfe/schema.ts compiled once per process, then the cross-field checks a
 * declarative schema cannot say: the partial tax-unit group (API.md, Item, unit rule 1), `ie`
 * required with `indicadorIE` 1 and absent with 2, `descricao` with `forma 99`, a real calendar
 * date-time in `dataSaidaEntrada`, and in NFC-e
 * `destNome` only with `destCPF`.
 * Everything here answers 400 VALIDATION_ERROR; the 422 business rules are lib/nfe/check.ts.
 * The input is not mutated: the returned body is a copy with the schema defaults applied.
 */
type Checker = (value: unknown) => true | FvError[];

let compiled: { nfe: Checker; nfce: Checker; batch: Checker } | undefined;
function checkers() {
  if (!compiled) {
    const v = sharedValidator();
    compiled = {
      nfe: v.compile(nfeBodySchema as any) as Checker,
      nfce: v.compile(nfceBodySchema as any) as Checker,
      batch: v.compile(nfeBatchBodySchema as any) as Checker,
    };
  }
  return compiled;
}

export interface ValidateOptions {
  /** Position of the note in a batch: paths become `notas[i]....`. */
  batchIndex?: number;
}

export function validateNfeBody(body: unknown, options: ValidateOptions = {}): NfeBody {
  const prefix = options.batchIndex === undefined ? '' : `notas[${options.batchIndex}]`;
  const copy = cloneBody(body);
  run(checkers().nfe, copy, prefix ? NFE_BATCH_FIELD_HINTS : NFE_FIELD_HINTS, prefix);
  const nfe = copy as NfeBody;
  throwIfAny([...structuralNfe(nfe, prefix)]);
  return nfe;
}

export function validateNfceBody(body: unknown): NfceBody {
  const copy = cloneBody(body);
  run(checkers().nfce, copy, NFCE_FIELD_HINTS, '');
  const nfce = copy as NfceBody;
  const errors = [...taxUnitErrors(nfce.items, ''), ...paymentErrors(nfce.pagamentos, '')];
  if (nfce.destNome !== undefined && nfce.destCPF === undefined) {
    errors.push({ field: 'destNome', message: "O campo 'destNome' exige 'destCPF' (consumidor identificado)." });
  }
  throwIfAny(errors);
  return nfce;
}

/** `{ notas: [nfeBody, ...] }`, 1-100 notes; all-or-nothing, paths carry the note index. */
export function validateBatchBody(body: unknown): { notas: NfeBody[] } {
  const copy = cloneBody(body);
  run(checkers().batch, copy, NFE_BATCH_FIELD_HINTS, '');
  const batch = copy as { notas: NfeBody[] };
  throwIfAny(batch.notas.flatMap((nota, i) => structuralNfe(nota, `notas[${i}]`)));
  return batch;
}

function run(check: Checker, value: unknown, hints: FieldHints, prefix: string): void {
  const result = check(value);
  if (result !== true) throw toValidationError(result, hints, prefix);
}

/** A copy of the body with null properties absent (lib/nfe/without-nulls.ts); {} for no body. */
function cloneBody(body: unknown): unknown {
  if (body === null || body === undefined) return {};
  return withoutNulls(body);
}

function structuralNfe(nfe: NfeBody, prefix: string): FieldError[] {
  const errors = [...taxUnitErrors(nfe.items, prefix), ...paymentErrors(nfe.pagamentos, prefix)];
  if (nfe.destinatario.indicadorIE === 1 && nfe.destinatario.ie === undefined) {
    errors.push({
      field: at(prefix, 'destinatario.ie'),
      message: `O campo '${at(prefix, 'destinatario.ie')}' é obrigatório quando indicadorIE é 1 (contribuinte).`,
    });
  }
  if (nfe.dataSaidaEntrada !== undefined && toDhSaiEnt(nfe.dataSaidaEntrada) === undefined) {
    const field = at(prefix, 'dataSaidaEntrada');
    errors.push({ field, message: `O campo '${field}' não é uma data e hora existente entre 2000 e 2099 (fuso até ±14:00).` });
  }
  if (nfe.destinatario.indicadorIE === 2 && nfe.destinatario.ie !== undefined) {
    errors.push({
      field: at(prefix, 'destinatario.ie'),
      message: `O campo '${at(prefix, 'destinatario.ie')}' não deve ser informado quando indicadorIE é 2 (isento).`,
    });
  }
  return errors;
}

const TAX_UNIT = ['unidadeTributavel', 'quantidadeTributavel', 'valorUnitarioTributavel'] as const;

/** API.md, Item, unit rule 1: the three tax-unit fields go together; one or two answer 400. */
function taxUnitErrors(items: Item[], prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const present = TAX_UNIT.filter((f) => item[f] !== undefined);
    if (present.length === 0 || present.length === TAX_UNIT.length) return;
    for (const f of TAX_UNIT.filter((name) => item[name] === undefined)) {
      const field = at(prefix, `items[${i}].${f}`);
      errors.push({
        field,
        message: `O campo '${field}' é obrigatório quando ${present.map((p) => `'${p}'`).join(' e ')} ${present.length > 1 ? 'são informados' : 'é informado'}: unidadeTributavel, quantidadeTributavel e valorUnitarioTributavel vão juntos.`,
      });
    }
  });
  return errors;
}

/** `forma 99` (other) needs its description (xPag, NT 2020.006). */
function paymentErrors(pagamentos: Pagamento[], prefix: string): FieldError[] {
  return pagamentos.flatMap((p, i) => {
    if (p.forma !== '99' || p.descricao !== undefined) return [];
    const field = at(prefix, `pagamentos[${i}].descricao`);
    return [{ field, message: `O campo '${field}' é obrigatório quando forma é 99 (outros).` }];
  });
}

function at(prefix: string, path: string): string {
  return prefix ? `${prefix}.${path}` : path;
}

function throwIfAny(errors: FieldError[]): void {
  if (errors.length) throw validationError(errors);
}
