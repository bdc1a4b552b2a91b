import type { Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { LoggerInstance } from 'moleculer';
import type { GatewayRequest } from './body.js';
import type { NodeMetrics } from '../shared/metrics.js';

/** What the gateway notes on a response for its access-log line (sendErrorEnvelope sets it). */
export type LoggedResponse = ServerResponse & { $errorCode?: string; $issuerId?: string };

/** Notes the issuer a success answered about (a note's issuer resolved from the caller's key, say). */
export function noteAnsweredIssuer(res: ServerResponse, data: unknown): void {
  const issuerId = data && typeof data === 'object' ? (data as Record<string, unknown>).issuerId : undefined;
  if (typeof issuerId === 'string') (res as LoggedResponse).$issuerId = issuerId;
}

/** The route label of a request no alias matched: one series, whatever path was asked for. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * One access-log line per HTTP request, at info, when its response ends (4xx and 5xx included),
 * and the request counters and latency histogram of this node. The route is the alias template
 * (`/v1/nfe/:id`), never the raw path: one series per route, and no ids or keys in the labels.
 * Only listed fields are logged: no header, body or query string, so no credential can leak here.
 */
export function attachAccessLog(server: Server, logger: LoggerInstance, metrics: NodeMetrics): void {
  server.prependListener('request', (raw, rawRes) => {
    const req = raw as GatewayRequest & { $alias?: { method: string; fullPath: string } };
    const res = rawRes as LoggedResponse;
    const start = performance.now();
    res.once('finish', () => {
      const seconds = (performance.now() - start) / 1000;
      const route = req.$alias?.fullPath ?? UNMATCHED_ROUTE;
      const method = req.method ?? 'GET';
      const status = String(res.statusCode);
      metrics.httpRequests.inc({ method, route, status });
      metrics.httpDuration.observe({ method, route, status }, seconds);
      const requestId = String(res.getHeader('X-Request-Id') ?? req.$requestId ?? '') || undefined;
      const caller = req.$ctx?.meta?.caller;
      const fields = {
        requestId, method, route, status: res.statusCode, durationMs: Math.round(seconds * 1e6) / 1e3,
        ...(caller?.partnerId ? { partnerId: caller.partnerId } : {}),
        ...(issuerOf(req, route) ?? res.$issuerId ? { issuerId: issuerOf(req, route) ?? res.$issuerId } : {}),
        ...(res.$errorCode ? { code: res.$errorCode } : {}),
      };
      logger.info(fields, 'request');
    });
  });
}

/**
 * The issuer a request is about: its `issuerId` (query or body; read from the parsed body too, since
 * an action may consume its params), or the id of a /companies/:id route.
 */
function issuerOf(req: GatewayRequest, route: string): string | undefined {
  const params = req.$params ?? {};
  const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  for (const v of [params.issuerId, body.issuerId]) if (typeof v === 'string') return v;
  if (route.startsWith('/v1/companies/:id') && typeof params.id === 'string') return params.id;
  return undefined;
}

/**
 * The access line of a request Node could not parse (answered from the socket by the gateway's
 * clientError listener, so no 'request' event fires): the method if the request line shows one.
 */
export function logUnparsedRequest(logger: LoggerInstance, metrics: NodeMetrics, r: { status: number; code: string; requestId: string; rawPacket?: Buffer }): void {
  const method = /^([A-Z]{1,16}) /.exec(r.rawPacket?.toString('latin1') ?? '')?.[1] ?? 'UNPARSED';
  const labels = { method, route: UNMATCHED_ROUTE, status: String(r.status) };
  metrics.httpRequests.inc(labels);
  logger.info({ requestId: r.requestId, method, route: UNMATCHED_ROUTE, status: r.status, code: r.code }, 'request');
}
