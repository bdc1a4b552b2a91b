import type { Cluster } from './cluster.js';

/** One answer of the cluster's gateway, read whole (status, headers, raw text and parsed body). */
export interface Answer { status: number; headers: Headers; text: string; body: any }

/** A POST as a partner's client sends it, with an Idempotency-Key when given. */
export async function postAs(cluster: Cluster, headers: Record<string, string>, path: string, body: unknown, key?: string): Promise<Answer> {
  const res = await fetch(cluster.url + path, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = text; }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/**
 * The whole 503 SERVICE_UNAVAILABLE envelope this answer must be (API.md, Errors), taking from
 * the answer only what the test cannot know: its request id (which must equal X-Request-Id) and
 * its timestamp (which must parse). Compare with t.deepEqual against the answer's body.
 */
export function unavailable(res: Answer, instance: string, details?: Record<string, unknown>): unknown {
  const timestamp = res.body?.error?.timestamp;
  return {
    error: {
      type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail: 'Serviço temporariamente indisponível.',
      ...(details ? { details } : {}),
      instance, requestId: res.headers.get('x-request-id'), timestamp: typeof timestamp === 'string' && !Number.isNaN(Date.parse(timestamp)) ? timestamp : '<an ISO timestamp>',
    },
  };
}
