import type { Socket } from 'node:net';
import type { DomainError } from '../../lib/errors/index.js';
import { clientErrorRefusal, clientErrorResponse } from '../../lib/http/client-error.js';
import { resolveRequestId } from '../../lib/http/request-id.js';
import { metricsOf } from '../shared/metrics.js';
import { runtimeOf } from '../shared/runtime.js';
import { logUnparsedRequest } from './access-log.js';
import { countHit, rateLimitHeaders } from './request-limit.js';
import type { GatewaySelf } from './service-this.js';

/**
 * How long the answer to an unparsed request waits for the shared per-IP window. Redis answers in
 * about a millisecond; a Redis that is down keeps ioredis retrying a command for seconds, and the
 * socket is not held that long: past this wait the node-local window counts the hit, as it counts
 * a probe's while Redis is down.
 */
export const UNPARSED_COUNT_WAIT_MS = 200;

/**
 * How long a refused connection may stay half-open after the answer. The server allows half-open
 * sockets (node:http), so a client that never closes its side would otherwise keep the socket
 * forever; a client that reads the answer closes at once (Connection: close).
 */
export const UNPARSED_CLOSE_GRACE_MS = 2_000;

/** Sockets whose answer is under way: Node reports the parser's error again for every later chunk. */
const answering = new WeakSet<Socket>();

type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer };

/**
 * Answers a request Node's parser refused (lib/http/client-error.ts) on its socket, with the
 * envelope and the X-RateLimit-* of the caller's per-IP window, where the request counts like any
 * anonymous one (API.md, Limits: every response carries the headers). Runs after moleculer-web's
 * created(), which made the server: with a listener attached, Node no longer writes its bare 400.
 */
export function answerUnparsedRequests(self: GatewaySelf): void {
  self.server?.on('clientError', (err: ParserError, socket: Socket) => {
    if (answering.has(socket)) return;
    const refusal = clientErrorRefusal(err.code);
    if (!refusal || !socket.writable) { socket.destroy(); return; }
    answering.add(socket);
    answer(self, socket, refusal, err.rawPacket).catch((e: Error) => {
      self.logger.warn({ err: e.message }, 'unparsed request not answered');
      socket.destroy();
    });
  });
}

/**
 * Past the limit the refusal stays what it is (400, 431, 408) with Remaining 0, not a 429: the
 * bytes are not a request any route could serve, and a 429 with Retry-After 1 (API.md, Limits)
 * would invite sending the same bytes again in a second, to the same refusal. The connection
 * closes after the answer either way, so the refusal costs the caller nothing a 429 would save.
 */
async function answer(self: GatewaySelf, socket: Socket, refusal: DomainError, rawPacket: Buffer | undefined): Promise<void> {
  const { config, clock } = runtimeOf(self.broker);
  const { shared, local } = self.rateLimiters();
  const now = clock.now();
  const counted = await countHit(shared, `ip:${socket.remoteAddress ?? 'unknown'}`, config.rateLimit.ipPerSecond, now.getTime(), { local, waitMs: UNPARSED_COUNT_WAIT_MS });
  // A client gone meanwhile, or a response of an earlier request on this connection already under
  // way (pipelining), whose bytes ours would corrupt: nothing can be answered (node:http's own rule).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) { socket.destroy(); return; }
  const requestId = resolveRequestId(undefined);
  socket.end(clientErrorResponse(refusal, { errorsBase: config.errorsBase, requestId, timestamp: now.toISOString(), rawPacket, headers: rateLimitHeaders(counted) }));
  const grace = setTimeout(() => socket.destroy(), UNPARSED_CLOSE_GRACE_MS).unref();
  socket.once('close', () => clearTimeout(grace));
  logUnparsedRequest(self.logger, metricsOf(self.broker), { status: refusal.code, code: refusal.type, requestId, rawPacket });
}
