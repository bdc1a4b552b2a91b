import { randomUUID } from 'node:crypto';

/** Accept a caller's id only when it is safe to echo and log: 8-128 of [A-Za-z0-9._:-]. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

export function resolveRequestId(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && WELL_FORMED.test(value) ? value : randomUUID();
}
