import { AsyncLocalStorage } from 'node:async_hooks';

/** Carries the request id through async work so every log line of a request names it. */
export interface RequestScope {
  requestId?: string;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}
