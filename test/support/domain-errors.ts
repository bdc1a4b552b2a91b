import type { ExecutionContext } from 'ava';
import { DomainError, type ErrorCode } from '../../lib/errors/index.js';

/** Runs `fn`, asserts it throws a DomainError with `code` and returns the error for more checks. */
export function throwsCode(t: ExecutionContext, fn: () => unknown, code: ErrorCode): DomainError {
  const error = t.throws(fn, { instanceOf: DomainError }) as DomainError;
  t.is(error?.type, code, `expected ${code}, got ${error?.type}: ${JSON.stringify(error?.data)}`);
  return error;
}
