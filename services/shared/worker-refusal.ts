import { DomainError, type ErrorCode } from '../../lib/errors/index.js';

/**
 * A DomainError as it crosses a worker thread's boundary: structured clone keeps an Error's
 * message but not the catalogued `type`/`data` the gateway renders from, so a worker answers its
 * refusals as this plain data and the pool throws them again (services/issuer/pkcs12-pool.ts,
 * services/emission/draft-pool.ts).
 */
export interface WorkerRefusal { type: string; data?: Record<string, unknown>; message: string }

/** In the worker: the refusal `err` is, or `err` thrown again when it is not a DomainError. */
export function refusalOf(err: any): WorkerRefusal {
  if (err?.name !== 'DomainError') throw err;
  return { type: err.type, ...(err.data ? { data: err.data } : {}), message: err.message };
}

/** In the pool: the DomainError the worker refused with. */
export function refusedWith(refusal: WorkerRefusal): DomainError {
  return new DomainError(refusal.type as ErrorCode, refusal.data, refusal.message);
}
