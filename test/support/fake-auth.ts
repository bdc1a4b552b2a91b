import type { ServiceSchema } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';
import { requestsPerSecond } from '../../lib/plans.js';
import type { Caller } from '../../services/shared/caller.js';

/**
 * A stand-in for v1.auth in tests of other services: `x-api-key: test-caller:<base64url JSON>`
 * authenticates as that Caller (missing fields get a partner on the Dev plan, live key, active
 * subscription). Use it only where the test is about another service; auth's own tests and the
 * end-to-end tests use the real service.
 */
export function fakeCallerKey(caller: Partial<Caller>): string {
  return `test-caller:${Buffer.from(JSON.stringify(caller)).toString('base64url')}`;
}

export const FakeAuthService: ServiceSchema = {
  name: 'auth',
  version: 1,
  actions: {
    authenticate: {
      visibility: 'public',
      handler(ctx: any): Caller {
        const key: string | undefined = ctx.params.apiKey;
        if (!key?.startsWith('test-caller:')) throw new DomainError('UNAUTHORIZED');
        const partial = JSON.parse(Buffer.from(key.slice('test-caller:'.length), 'base64url').toString()) as Partial<Caller>;
        const plan = partial.plan ?? 'DEV';
        return {
          scheme: 'key', partnerId: 'p-test', userId: null, role: null, isOwner: false, keyKind: 'live',
          plan, rateLimit: requestsPerSecond(plan), subscriptionActive: true, ...partial,
        };
      },
    },
  },
};
