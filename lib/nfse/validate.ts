import type { ValidationError as FvError } from 'fastest-validator';
import { validationError, type FieldError } from '../errors/index.js';
import { withoutNulls } from '../nfe/without-nulls.js';
import { toValidationError } from '../validation/field-errors.js';
import { sharedValidator } from '../validation/validator.js';
import { NFSE_FIELD_HINTS } from './field-hints.js';
import { nfseBodySchema } from './schema.js';
import type { NfseBody } from './types.js';

/**
 * Strict validation of the POST /v1/nfse body (API.md, "NFS-e payload", NFS-e rule 1, Precision
 * rules, Errors > Unknown fields): the schema of lib/nfse/schema.ts compiled once per process,
 * then the presence checks a declarative schema cannot say. Everything here answers 400
 * VALIDATION_ERROR; the 422 rules are lib/nfse/check.ts. The input is not mutated: the returned
 * body is a copy with null properties absent and the schema defaults applied.
 */
type Checker = (value: unknown) => true | FvError[];

let compiled: Checker | undefined;

export function validateNfseBody(body: unknown): NfseBody {
  compiled ??= sharedValidator().compile(nfseBodySchema as any) as Checker;
  const copy = body === null || body === undefined ? {} : withoutNulls(body);
  const result = compiled(copy);
  if (result !== true) throw toValidationError(result, NFSE_FIELD_HINTS);
  const nfse = copy as NfseBody;
  const errors = requiredForTheDps(nfse);
  if (errors.length) throw validationError(errors);
  return nfse;
}

/**
 * Fields the DPS cannot go without. Those that assisted taxation fills from the issuer record
 * (rule 10: opSimpNac, cTribNac, tribISSQN, ibsCbs.finNFSe, ibsCbs.indDest) are required only
 * when `resolverTributacao` is not true; with it, a field without a source answers 422 with
 * `camposNaoResolvidos` (lib/nfse/rules/resolver.ts). cst, cClassTrib and cIndOp of the IBS/CBS
 * group are pure passthrough: always required when the group is sent.
 */
function requiredForTheDps(body: NfseBody): FieldError[] {
  const resolvable: string[] = [];
  const passthrough: string[] = [];
  if (body.resolverTributacao !== true) {
    for (const f of ['opSimpNac', 'cTribNac', 'tribISSQN'] as const) {
      if (body.dpsNacional?.[f] === undefined) resolvable.push(`dpsNacional.${f}`);
    }
  }
  const ibsCbs = body.ibsCbs;
  if (ibsCbs) {
    for (const f of ['cst', 'cClassTrib', 'cIndOp'] as const) if (ibsCbs[f] === undefined) passthrough.push(`ibsCbs.${f}`);
    if (body.resolverTributacao !== true) {
      for (const f of ['finNFSe', 'indDest'] as const) if (ibsCbs[f] === undefined) resolvable.push(`ibsCbs.${f}`);
    }
  }
  return [
    ...resolvable.map((field) => ({ field, message: `O campo '${field}' é obrigatório (ou envie resolverTributacao: true para preenchê-lo do cadastro do emissor).` })),
    ...passthrough.map((field) => ({ field, message: `O campo '${field}' é obrigatório quando o grupo ibsCbs é informado.` })),
  ];
}
