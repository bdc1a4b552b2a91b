import ApiService from 'moleculer-web';
import type { Context } from 'moleculer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorLike } from '../../lib/http/error-envelope.js';
import { jsonBoundsViolation } from '../../lib/http/json-bounds.js';
import { jsonBoundsRefusal } from '../../lib/http/json-bounds-refusal.js';
import { DomainError } from '../../lib/errors/index.js';

/** The gateway's view of a request: moleculer-web's fields plus what the gateway attaches. */
export type GatewayRequest = IncomingMessage & {
  $requestId: string; $ctx: Context<any, any>; $action?: any; $route?: any; $params?: any; body?: unknown;
  parsedUrl?: string; originalUrl?: string; $idempotencyId?: number; $bodyError?: unknown;
};
type Req = GatewayRequest;

/**
 * Wraps body-parser failures (which carry `status`/`type`, not Moleculer fields) as catalogued
 * errors. A body that cannot be read for any other reason (a Content-Encoding that does not
 * inflate: zlib's `Z_DATA_ERROR`, `Z_BUF_ERROR`; a Content-Length the body does not match) is a
 * 400 too: those errors carry no `type`, or one of their own, and must never become a 500.
 */
export function normalizeError(err: any): ErrorLike {
  if (err && typeof err.type === 'string' && err.type.startsWith('entity.')) {
    if (err.type === 'entity.too.large') return new DomainError('PAYLOAD_TOO_LARGE');
    if (err.type === 'entity.parse.failed') return new DomainError('BAD_REQUEST', undefined, 'Corpo da requisição não é JSON válido.');
    return new DomainError('BAD_REQUEST', undefined, 'Corpo da requisição ilegível.');
  }
  if (err && (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')) return new DomainError('UNSUPPORTED_MEDIA_TYPE');
  return err ?? {};
}

function bodyRefusal(err: any): ErrorLike {
  const known = normalizeError(err);
  return known instanceof DomainError ? known : new DomainError('BAD_REQUEST', undefined, 'Corpo da requisição ilegível.');
}

/**
 * moleculer-web's JSON body parser, except that a body that cannot be read or parsed, or breaks
 * the shape bounds of lib/http/json-bounds.ts (depth, keys per object, nodes), is refused only
 * after authentication and the route's key rules (in `authorize`), like every other body
 * validation: an ek_test_ key on a webhook write gets its 403 whatever it sent. An oversized body
 * is still refused at once (413), before anything else reads it.
 */
export function jsonBodyParser(opts: { limit: string; strict: boolean }) {
  // Every JSON type the 415 below lets through is parsed (body-parser alone reads only application/json).
  const parse = (ApiService as any).bodyParser.json({ ...opts, type: (req: Req) => isJsonType(req.headers['content-type']) });
  return (req: Req, res: ServerResponse, next: (err?: unknown) => void) => {
    // A body sent as anything but JSON (a form, text, none named) would reach the validator as {}
    // and answer a misleading "campo obrigatório": 415 says what is wrong (API.md: requests are JSON).
    if (sendsBody(req) && !isJsonType(req.headers['content-type'])) {
      req.$bodyError = new DomainError('UNSUPPORTED_MEDIA_TYPE', { contentType: req.headers['content-type'] ?? null });
      req.resume();
      return next();
    }
    return parse(req, res, (err: any) => afterParse(req, err, next));
  };
}

function afterParse(req: Req, err: any, next: (err?: unknown) => void): void {
  if (!err) {
    // Bounded here, in the node that received the body: a body no schema could accept never
    // reaches the validator or crosses the transporter (issue 23, defect 2).
    const violation = jsonBoundsViolation(req.body);
    if (violation) req.$bodyError = jsonBoundsRefusal(violation);
    return next();
  }
  if (err.type === 'entity.too.large') return next(bodyRefusal(err));
  req.$bodyError = bodyRefusal(err);
  return next();
}

/** A 201 names what it created (RFC 9110 §15.3.2): the resource's own `links.self`. */
export function setLocation(res: ServerResponse, status: number, body: any): string | undefined {
  const self = body?.data?.links?.self;
  if (status !== 201 || typeof self !== 'string' || !self.startsWith('/')) return undefined;
  res.setHeader('Location', self);
  return self;
}

/**
 * moleculer-web warns on every 201 whose action set no `ctx.meta.$location`. wrapSuccess sets it
 * from `links.self`; a 201 that creates nothing with a URL of its own (a login's session, a
 * regenerated key) has none, and a warning per such request is noise (issue 21, item 9). Only that
 * message is dropped; every other warning of the gateway passes.
 */
export function dropMissingLocationWarning(logger: { warn(...args: unknown[]): void }): void {
  const warn = logger.warn.bind(logger);
  logger.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith("The 'ctx.meta.$location' is missing")) return;
    warn(...args);
  };
}

function sendsBody(req: Req): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** application/json or any +json type, parameters aside. */
function isJsonType(header: string | undefined): boolean {
  const type = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
