import type { Server, ServerResponse } from 'node:http';
import type { Context, Service } from 'moleculer';
import type { DbMethods } from '../mixins/db.mixin.js';
import type { Caller, CallerMeta } from '../shared/caller.js';
import type { JsonSchema, RouteDoc } from '../../lib/http/openapi.js';
import type { GatewayRequest } from './body.js';
import type { ErrorLike } from '../../lib/http/error-envelope.js';
import type { RateLimiter } from './rate-limiter.js';

/** What the gateway's hooks put in and read from `ctx.meta`, besides the caller (moleculer-web's own fields). */
export type GatewayMeta = CallerMeta & { $rawResponse?: boolean; $location?: string; $responseType?: string };
export type GatewayCtx = Context<unknown, GatewayMeta>;

/** One entry of moleculer-web's route table (`this.aliases`), as far as the gateway reads it. */
export interface GatewayAlias {
  route?: { path: string };
  method: string;
  fullPath: string;
  action?: string;
  re?: RegExp;
}

/**
 * The api gateway as its hooks, actions and methods see it: moleculer-web's server and route
 * table, DbMixin's knex and t(), its rate limiter and purge timer, and its methods.
 */
export type GatewaySelf = Service & DbMethods & {
  server?: Server;
  aliases: GatewayAlias[];
  _rateLimiter?: RateLimiter;
  /** Counts per-IP windows on this node while the shared limiter cannot (request-limit.ts). */
  _localRateLimiter?: RateLimiter;
  purgeTimer?: NodeJS.Timeout;
  publishedRoutes(): RouteDoc[];
  openApiDocument(): JsonSchema;
  rateLimiters(): { shared: RateLimiter; local: RateLimiter };
  limit(res: ServerResponse, key: string, perSecond: number, localWhenDown?: boolean): Promise<void>;
  countedRefusal(req: GatewayRequest, res: ServerResponse, err: ErrorLike): Promise<ErrorLike>;
  clientIp(req: GatewayRequest): string;
  authenticate(ctx: GatewayCtx, route: unknown, req: GatewayRequest, res: ServerResponse): Promise<Caller | null>;
  authorize(ctx: GatewayCtx, route: { path: string }, req: GatewayRequest, res: ServerResponse): Promise<void>;
  wrapSuccess(ctx: GatewayCtx, req: GatewayRequest, res: ServerResponse, data: unknown): Promise<unknown>;
  errorHandler(req: GatewayRequest, res: ServerResponse, err: unknown): void;
  allowedMethods(req: GatewayRequest): string[];
  sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, raw: any): Promise<void>;
};

/** Moleculer types `this` of lifecycle hooks as the bare Service: this is ours. */
export const gatewayService = (service: Service) => service as GatewaySelf;
