import type { ExecutionContext } from 'ava';
import type { ServiceBroker } from 'moleculer';
import { startStack, type Stack, type HttpResult } from '../../support/stack.js';
import type { Clock } from '../../../services/shared/clock.js';
import { FakeEmissionActivity } from '../../support/fake-emission.js';
import { authenticationKey, type AuthenticationCache } from '../../../services/auth/authentication-cache.js';

/**
 * A gateway + auth stack with a cheap Argon2id cost (testEnv's, unless `argon2MemoryKiB`), and the
 * emission stand-in a partner deactivation asks (test/support/fake-emission.ts).
 */
export async function authStack(t: ExecutionContext, opts: { clock?: Clock; nodes?: number; redis?: boolean; argon2MemoryKiB?: number; env?: Record<string, string> } = {}): Promise<Stack> {
  const nodes = Array.from({ length: opts.nodes ?? 1 }, (_, i) => ({ services: ['api-gateway', 'auth'], extra: i === 0 ? [FakeEmissionActivity] : [] }));
  const stack = await startStack({ nodes, clock: opts.clock, redis: opts.redis, env: { ...(opts.argon2MemoryKiB ? { AUTH_ARGON2_MEMORY_KIB: String(opts.argon2MemoryKiB) } : {}), ...(opts.env ?? {}) } });
  t.teardown(() => stack.stop());
  return stack;
}

/** The one refusal every login failure gets (API.md, Login lockout; Errors > Other behaviour 4). */
export function assertInvalidCredentials(t: ExecutionContext, res: HttpResult, path = '/v1/auth/login'): void {
  t.is(res.status, 401, res.text);
  t.is(res.body.error.type, 'https://errors.test/UNAUTHORIZED');
  t.is(res.body.error.status, 401);
  t.is(res.body.error.detail, 'Credenciais inválidas');
  t.is(res.body.error.instance, path);
  t.deepEqual(Object.keys(res.body.error).sort(), ['detail', 'instance', 'requestId', 'status', 'timestamp', 'title', 'type']);
}

export function assertError(t: ExecutionContext, res: HttpResult, status: number, slug: string, detail?: string | RegExp): void {
  t.is(res.status, status, res.text);
  t.is(res.body?.error?.type, `https://errors.test/${slug}`, res.text);
  t.is(res.body.error.status, status);
  if (typeof detail === 'string') t.is(res.body.error.detail, detail);
  else if (detail) t.regex(res.body.error.detail, detail);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What this node's auth cache holds for these request headers (services/auth/authentication-cache.ts), without loading. */
export function cachedAuthentication(broker: ServiceBroker, headers: { authorization?: string; 'x-api-key'?: string }) {
  const cache = (broker.getLocalService('v1.auth') as unknown as { authentications: AuthenticationCache }).authentications;
  return cache.cluster.local.peek(authenticationKey({ authorization: headers.authorization, apiKey: headers['x-api-key'] }));
}
