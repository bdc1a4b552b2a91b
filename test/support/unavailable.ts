import type { ExecutionContext } from 'ava';
import type { HttpResult } from './stack.js';

/** The whole 503 of a lost or failed emission: Retry-After 5 and the envelope naming the document. */
export function assertUnavailable(t: ExecutionContext, res: HttpResult, instance: string, at: Date, details: Record<string, unknown>): void {
  t.is(res.status, 503, res.text);
  t.is(res.headers.get('retry-after'), '5');
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail: 'Serviço temporariamente indisponível.',
      details, instance, requestId: res.headers.get('x-request-id'), timestamp: at.toISOString(),
    },
  });
}
