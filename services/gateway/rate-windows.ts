import type { ServerResponse } from 'node:http';
import type { ErrorLike } from '../../lib/http/error-envelope.js';
import { runtimeOf } from '../shared/runtime.js';
import type { GatewayRequest } from './body.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limiter.js';
import { enforceLimit, limiterFor } from './request-limit.js';
import type { GatewaySelf } from './service-this.js';

/**
 * The gateway's rate-limit windows (API.md, Limits): per partner for authenticated calls, per IP
 * for everything else. Every answer counts in one of them and carries its X-RateLimit-*, including
 * refusals sent before any route ran (here) and those written on the raw socket (unparsed-request.ts).
 */
export const rateWindowMethods = {
  /**
   * The shared limiter (Redis when configured) and this node's own window, which counts the per-IP
   * hits of probes and of unparsed requests while the shared one cannot (request-limit.ts).
   */
  rateLimiters(this: GatewaySelf): { shared: RateLimiter; local: RateLimiter } {
    return { shared: (this._rateLimiter ??= limiterFor(runtimeOf(this.broker).config)), local: (this._localRateLimiter ??= new MemoryRateLimiter()) };
  },

  async limit(this: GatewaySelf, res: ServerResponse, key: string, perSecond: number, localWhenDown = false) {
    const { shared, local } = this.rateLimiters();
    await enforceLimit(shared, res, key, perSecond, runtimeOf(this.broker).clock.now().getTime(), localWhenDown ? local : undefined);
  },

  /**
   * A refusal sent before any window was counted (no route: 404, 405; a body over the limit: 413;
   * credentials v1.auth could not check) still carries X-RateLimit-* (API.md, Limits: every
   * response), from the per-IP window: no partner was identified. It counts there like any
   * anonymous request, so past the limit it is the 429 instead. When even that window cannot be
   * counted (Redis down) the refusal goes out as it was, without the headers.
   */
  async countedRefusal(this: GatewaySelf, req: GatewayRequest, res: ServerResponse, err: ErrorLike): Promise<ErrorLike> {
    if (res.headersSent || res.hasHeader('X-RateLimit-Limit')) return err;
    return this.limit(res, `ip:${this.clientIp(req)}`, runtimeOf(this.broker).config.rateLimit.ipPerSecond).then(() => err, (e: ErrorLike) => {
      if (Number(e?.code) === 429) return e;
      this.logger.debug({ err: (e as Error)?.message }, 'per-IP window not counted for a refusal');
      return err;
    });
  },

  clientIp(req: GatewayRequest): string {
    return req.socket?.remoteAddress ?? 'unknown';
  },
};
