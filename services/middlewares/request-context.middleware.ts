import type { Middleware } from 'moleculer';
import { requestScope } from '../shared/request-context.js';

/** Runs every local action and event handler inside the request's async scope (for pino's mixin). */
export const RequestContextMiddleware: Middleware = {
  name: 'RequestContext',
  localAction(next: any) {
    return (ctx: any) => requestScope.run({ requestId: ctx.requestID }, () => next(ctx));
  },
  localEvent(next: any) {
    return (ctx: any) => requestScope.run({ requestId: ctx.requestID }, () => next(ctx));
  },
} as unknown as Middleware;
