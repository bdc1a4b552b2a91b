import { STATUS_CODES } from 'node:http';
import { DomainError } from '../errors/index.js';
import { renderError, type EnvelopeContext } from './error-envelope.js';

/**
 * A request Node's HTTP parser refuses (bytes outside the grammar in the request line or a header,
 * oversized headers, an incomplete request at timeout) never reaches moleculer-web; by default Node
 * answers it with a bare `400 Bad Request` and no body. API.md, Errors > Envelope wants the
 * envelope on every refusal, so the gateway writes this raw response on the socket instead.
 */
export function clientErrorRefusal(code: string | undefined): DomainError | null {
  if (code === 'HPE_HEADER_OVERFLOW') return new DomainError('CABECALHOS_GRANDES_DEMAIS');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new DomainError('REQUISICAO_INCOMPLETA');
  if (code?.startsWith('HPE_')) return new DomainError('BAD_REQUEST', undefined, 'Requisição HTTP malformada.');
  return null; // a reset or a closed socket: nobody to answer
}

/**
 * The request path as sent (without the query), from the bytes the parser kept, read as UTF-8 like
 * clients write it (bytes that are not UTF-8 become U+FFFD); `/` when unreadable.
 */
export function requestPathOf(rawPacket: Buffer | undefined): string {
  const line = rawPacket?.toString('utf8').split('\r\n', 1)[0] ?? '';
  // The request line is split by SP only (RFC 9112 3): a U+00A0 is part of the target.
  const target = /^[A-Za-z]+ ([^ ]+)/.exec(line)?.[1];
  return target ? target.split('?')[0]! : '/';
}

/**
 * The whole HTTP/1.1 response text; the connection closes after it (the parser state is lost).
 * `headers`: more header fields (the gateway's X-RateLimit-*), values already valid field values.
 */
export function clientErrorResponse(refusal: DomainError, ctx: Omit<EnvelopeContext, 'instance'> & { rawPacket?: Buffer; headers?: Record<string, string> }): string {
  const { status, body } = renderError(refusal, { errorsBase: ctx.errorsBase, requestId: ctx.requestId, timestamp: ctx.timestamp, instance: requestPathOf(ctx.rawPacket) });
  const json = JSON.stringify(body);
  const extra = Object.entries(ctx.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n`
    + `X-Request-Id: ${ctx.requestId}\r\n${extra}Connection: close\r\n\r\n${json}`;
}
