import { CATALOG, type ErrorCode } from './catalog.js';

/**
 * A refusal with a catalogued code. Carries Moleculer's error fields (`code` = HTTP status,
 * `type` = catalogued code, `data` = details) because those survive the Redis transporter
 * while the class does not: the gateway renders from the fields, never from `instanceof`.
 */
export class DomainError extends Error {
  readonly code: number;
  readonly type: ErrorCode;
  readonly data?: Record<string, unknown>;
  /** Moleculer's retry policy reads this: a refusal is never worth repeating. */
  readonly retryable = false;

  constructor(type: ErrorCode, data?: Record<string, unknown>, detail?: string) {
    super(detail ?? CATALOG[type].detail);
    this.name = 'DomainError';
    this.type = type;
    this.code = CATALOG[type].status;
    if (data !== undefined) this.data = data;
  }
}

/** A 400 naming the offending fields, as API.md, Errors > Envelope `errors[]`. */
export interface FieldError {
  field: string;
  message: string;
}

export function validationError(errors: FieldError[], details?: Record<string, unknown>, detail?: string): DomainError {
  return new DomainError('VALIDATION_ERROR', { errors, ...(details ? { details } : {}) }, detail);
}
