import type { CallingOptions } from 'moleculer';

/**
 * What the emission service calls other services through: a broker (outside a request) or a
 * request's context. Both offer this one signature; their own overload sets cannot be called
 * through a union of the two, so every port takes this and names the result it expects.
 */
export interface ActionCaller {
  call<T>(action: string, params: unknown, opts?: CallingOptions): Promise<T>;
}

/** A failed transmission call: `failed` when it certainly sent nothing, else `unknown` (consulted, never resent). */
export interface CallFailure {
  kind: 'failed' | 'unknown';
  reason: 'connect' | 'timeout-after-send';
  detail: string;
}

/** A thrown value's message, or the value itself as text. */
export function errorText(err: unknown): string {
  const message = typeof err === 'object' && err !== null ? (err as { message?: unknown }).message : undefined;
  return String(message ?? err);
}

/**
 * A call that threw before any node took it (no sefaz service, or none available) sent nothing.
 * Anything else (the broker's timeout, a node lost mid-call) may have reached the authority.
 */
export function callFailure(err: unknown): CallFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; type?: unknown };
  const name = String(e.name ?? e.type ?? '');
  const notSent = name === 'ServiceNotFoundError' || name === 'ServiceNotAvailableError' || e.type === 'SERVICE_NOT_FOUND' || e.type === 'SERVICE_NOT_AVAILABLE';
  return notSent
    ? { kind: 'failed', reason: 'connect', detail: 'serviço sefaz indisponível' }
    : { kind: 'unknown', reason: 'timeout-after-send', detail: errorText(err) };
}
