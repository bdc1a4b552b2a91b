import test from 'ava';
import { clientErrorRefusal, clientErrorResponse, requestPathOf } from '../../../lib/http/client-error.js';

const ctx = { errorsBase: 'https://errors.test', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z' };

test('clientErrorRefusal maps parser errors to 400, oversized headers to 431, a timeout to 408, and a reset to nothing', (t) => {
  t.is(clientErrorRefusal('HPE_INVALID_URL')?.type, 'BAD_REQUEST');
  t.is(clientErrorRefusal('HPE_INVALID_HEADER_TOKEN')?.code, 400);
  t.is(clientErrorRefusal('HPE_HEADER_OVERFLOW')?.code, 431);
  t.is(clientErrorRefusal('ERR_HTTP_REQUEST_TIMEOUT')?.code, 408);
  t.is(clientErrorRefusal('ECONNRESET'), null);
  t.is(clientErrorRefusal(undefined), null);
});

test('requestPathOf reads the path of the request line, without the query, and falls back to /', (t) => {
  t.is(requestPathOf(Buffer.from('GET /v1/nfe/çã?a=1 HTTP/1.1\r\nHost: x\r\n', 'utf8')), '/v1/nfe/çã');
  t.is(requestPathOf(Buffer.from('GET /v1/nfe/\xff\xfe HTTP/1.1\r\n', 'latin1')), '/v1/nfe/\ufffd\ufffd');
  t.is(requestPathOf(Buffer.from('GET /v1/nfe/a\u00a0b HTTP/1.1\r\n', 'utf8')), '/v1/nfe/a\u00a0b');
  t.is(requestPathOf(Buffer.from('\x00\x01garbage')), '/');
  t.is(requestPathOf(undefined), '/');
});

test('clientErrorResponse is a complete HTTP/1.1 answer carrying the error envelope and X-Request-Id', (t) => {
  const text = clientErrorResponse(clientErrorRefusal('HPE_INVALID_URL')!, { ...ctx, rawPacket: Buffer.from('GET /v1/nfe/a b HTTP/1.1\r\n') });
  const [head, body] = text.split('\r\n\r\n');
  t.regex(head!, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.regex(head!, /\r\nX-Request-Id: req-12345678\r\n/);
  t.regex(head!, /\r\nConnection: close$/);
  t.regex(head!, new RegExp(`Content-Length: ${Buffer.byteLength(body!)}\\r\\n`));
  t.deepEqual(JSON.parse(body!), {
    error: {
      type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: 'Requisição HTTP malformada.',
      instance: '/v1/nfe/a', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z',
    },
  });
});

test('clientErrorResponse writes the header fields it is given (X-RateLimit-*) before Connection: close', (t) => {
  const headers = { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1795780801' };
  const head = clientErrorResponse(clientErrorRefusal('HPE_HEADER_OVERFLOW')!, { ...ctx, headers }).split('\r\n\r\n')[0]!;
  t.regex(head, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  t.regex(head, /\r\nX-RateLimit-Limit: 20\r\nX-RateLimit-Remaining: 0\r\nX-RateLimit-Reset: 1795780801\r\nConnection: close$/);
});
