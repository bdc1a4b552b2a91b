import https from 'node:https';
import type { Socket } from 'node:net';
import type { InfrastructureReason } from '../../lib/sefaz/results.js';

/**
 * One SOAP POST over mutual TLS, with the outcome classified by whether the request body could
 * have reached the authority:
 * - before the body was written (DNS/TCP connect, TLS handshake, waiting for "100 Continue") →
 *   `before-send`: the authority certainly did not process it;
 * - after (no answer in time, connection lost, broken answer) → `after-send`: it may have.
 *
 * `Expect: 100-continue` (what .NET clients send, and the authorities' servers honour) makes that
 * line sharp: the body leaves only after the server said it will read it, so a server that hangs
 * or a TLS 1.3 certificate refusal that arrives after the client's handshake is seen before send.
 */
export interface PostRequest {
  url: string;
  agent: https.Agent;
  /** POST by default; GET and HEAD send no body (the Sefin Nacional REST reads). */
  method?: 'POST' | 'GET' | 'HEAD';
  body: string;
  contentType: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  expectContinue?: boolean;
}

export type PostOutcome =
  | { ok: true; status: number; body: string; bodyWritten: boolean }
  | { ok: false; phase: 'before-send' | 'after-send'; reason: InfrastructureReason; detail: string };

const TLS_ERROR = /^ERR_SSL_|^ERR_TLS_|CERT|SELF_SIGNED|UNABLE_TO_|EPROTO|HOSTNAME|ALERT/i;

export function postSoap(r: PostRequest): Promise<PostOutcome> {
  return new Promise((resolvePost) => {
    const url = new URL(r.url);
    const method = r.method ?? 'POST';
    const payload = Buffer.from(method === 'POST' ? r.body : '', 'utf8');
    let settled = false;
    let tcpUp = false;
    let tlsUp = false;
    let bodyWritten = false;
    let fresh = true;
    let answered = false;
    let timer: NodeJS.Timeout | null = null;

    const finish = (o: PostOutcome) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (!o.ok) req.destroy();
      resolvePost(o);
    };
    const arm = (ms: number, onTimeout: () => void) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(onTimeout, ms);
    };
    const failBefore = (reason: InfrastructureReason, detail: string) => finish({ ok: false, phase: 'before-send', reason, detail });
    const failAfter = (reason: InfrastructureReason, detail: string) => finish({ ok: false, phase: 'after-send', reason, detail });

    const expect = method === 'POST' && r.expectContinue !== false;
    const req = https.request({
      method,
      hostname: url.hostname,
      port: url.port || 443,
      path: url.pathname + url.search,
      agent: r.agent,
      headers: method === 'POST'
        ? { 'content-type': r.contentType, 'content-length': String(payload.length), ...(expect ? { expect: '100-continue' } : {}) }
        : { accept: r.contentType },
    });
    const writeBody = () => {
      if (bodyWritten || settled) return;
      bodyWritten = true; // from here on the authority may have received it
      arm(r.readTimeoutMs, () => failAfter('timeout-after-send', `no answer within ${r.readTimeoutMs} ms after sending`));
      req.end(payload);
    };

    arm(r.connectTimeoutMs, () => failBefore('timeout-before-send',
      `${!tcpUp ? 'TCP connect' : !tlsUp ? 'TLS handshake' : 'waiting for 100 Continue'} exceeded ${r.connectTimeoutMs} ms`));

    req.on('socket', (socket: Socket) => {
      if (req.reusedSocket || (!socket.connecting && (socket as any).encrypted && (socket as any).authorized)) {
        tcpUp = tlsUp = true;
        fresh = false;
        if (!expect) writeBody();
        return;
      }
      socket.once('connect', () => { tcpUp = true; });
      socket.once('secureConnect', () => { tcpUp = tlsUp = true; if (!expect) writeBody(); });
    });
    if (expect) req.on('continue', () => { answered = true; writeBody(); });
    else req.flushHeaders();

    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        finish({ ok: true, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), bodyWritten });
        if (!bodyWritten) req.destroy(); // the declared body never left: this connection cannot be reused
      });
      res.on('aborted', () => (bodyWritten ? failAfter('connection-lost-after-send', 'answer cut short')
        : failBefore('connect', 'answer cut short before the request was sent')));
      res.on('error', (err) => (bodyWritten ? failAfter('connection-lost-after-send', err.message) : failBefore('connect', err.message)));
    });

    req.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? '';
      const detail = `${code ? code + ': ' : ''}${err.message}`;
      if (bodyWritten) return failAfter('connection-lost-after-send', detail);
      if (TLS_ERROR.test(code) || TLS_ERROR.test(err.message) || (tcpUp && !tlsUp)) return failBefore('tls', detail);
      // TLS 1.3: the server checks our certificate after the client's side of the handshake is
      // done, so its refusal shows up as a reset of a brand-new connection before any answer.
      if (fresh && tlsUp && !answered) return failBefore('tls', `${detail} (connection closed right after the handshake: client certificate refused?)`);
      return failBefore('connect', detail);
    });
  });
}
