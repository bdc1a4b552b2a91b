import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { checkResolvedAddresses, hostOf } from '../../lib/webhooks/url-policy.js';

export interface PostResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface PostOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

/** Resolves every address of a host (dns.lookup, as the connection would). */
export async function resolveAll(host: string): Promise<string[]> {
  return (await resolveVerbatim(host)).map((a) => a.address);
}

function resolveVerbatim(host: string): Promise<LookupAddress[]> {
  const family = isIP(host);
  if (family) return Promise.resolve([{ address: host, family }]);
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) => (err ? reject(err) : resolve(addrs)));
  });
}

/** Request option that carries the addresses checked for this delivery into the pool key. */
const PINNED = 'webhookPinnedAddresses';

/**
 * Keep-alive pools for webhook POSTs (one per scheme), owned by the dispatcher and destroyed when
 * it stops. A pool is keyed by origin *and* by the addresses this delivery resolved and checked
 * (getName below), so a reused socket is always connected to an address that passed the SSRF
 * guard in the same delivery: if the host's DNS answer changes, the next delivery checks the new
 * answer and opens a new pool, and the old sockets idle out.
 */
export class WebhookAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;

  constructor(opts: { maxSocketsPerOrigin: number; idleSocketMs: number }) {
    const options = {
      keepAlive: true,
      // Bounded per origin so one partner's burst cannot open a connection per claimed attempt;
      // requests beyond it queue on the agent, still inside the delivery's timeout.
      maxSockets: opts.maxSocketsPerOrigin,
      maxFreeSockets: opts.maxSocketsPerOrigin,
      // Idle sockets close after this (or 1 s before the receiver's own `Keep-Alive: timeout=`
      // hint, which Node applies when shorter), so we rarely write on a socket the receiver closes.
      timeout: opts.idleSocketMs,
      scheduling: 'lifo' as const,
    };
    this.http = pinnedPool(new http.Agent(options));
    this.https = pinnedPool(new https.Agent(options));
  }

  for(url: URL): http.Agent {
    return url.protocol === 'https:' ? this.https : this.http;
  }

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

function pinnedPool<A extends http.Agent>(agent: A): A {
  const base = agent.getName.bind(agent);
  agent.getName = (options?: http.ClientRequestArgs) => `${base(options)}:${(options as any)?.[PINNED] ?? ''}`;
  return agent;
}

class BlockedTarget extends Error {}

/**
 * The most of a receiver's answer body read (and thrown away) so its connection can be reused.
 * Beyond it the status already given is the answer and the connection is closed: an endless 200
 * body used to be drained at full speed for the whole timeout (one core for 10 s per delivery, on
 * the node that delivers every partner's events) and then counted as no answer.
 */
export const MAX_ANSWER_BODY_BYTES = 64 * 1024;

/** Errors that mean a kept-alive socket was closed by the receiver before it read our request. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);

const plainAddress = (a: string | undefined) => (a ?? '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * POSTs one webhook over a kept-alive connection. Every delivery resolves the host and runs the
 * SSRF guard over every address first; the connection then uses only those addresses (a new
 * socket's lookup answers from them; a reused socket must be connected to one of them), so the
 * address checked is the address sent to, also after a DNS change (DNS rebinding). No redirects
 * are followed; the response body is discarded (at most MAX_ANSWER_BODY_BYTES of it read); the whole
 * exchange is bounded by `timeoutMs`.
 * Never throws: failures come back as `error`.
 */
export function postWebhook(opts: PostOptions, agents: WebhookAgents): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostResult => ({ statusCode, error, latencyMs: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return Promise.resolve(done(null, 'URL inválida'));
  }
  const deadline = started + opts.timeoutMs;

  return new Promise((resolve) => {
    let settled = false;
    let current: http.ClientRequest | null = null;
    const finish = (r: PostResult) => { if (!settled) { settled = true; clearTimeout(timer); resolve(r); } };
    // Bounds everything, the DNS resolution included.
    const timer = setTimeout(() => {
      finish(done(null, `sem resposta em ${opts.timeoutMs} ms`));
      current?.destroy();
    }, opts.timeoutMs);

    const send = (addresses: LookupAddress[], fresh: boolean) => {
      const checked = new Set(addresses.map((a) => plainAddress(a.address)));
      const pinnedLookup = (_hostname: string, options: any, callback: any) => {
        const wanted = options?.family === 6 ? addresses.filter((a) => a.family === 6) : options?.family === 4 ? addresses.filter((a) => a.family === 4) : addresses;
        const list = wanted.length ? wanted : addresses;
        if (options?.all) return callback(null, list);
        return callback(null, list[0]!.address, list[0]!.family);
      };
      const client = url.protocol === 'https:' ? https : http;
      let responded = false;
      const req = client.request(url, {
        method: 'POST',
        headers: { ...opts.headers, 'Content-Length': String(Buffer.byteLength(opts.body)) },
        lookup: pinnedLookup as any,
        // The one retry after a stale pooled socket opens its own connection (another pooled
        // socket may be just as stale).
        agent: fresh ? false : agents.for(url),
        [PINNED]: [...checked].sort().join(','),
      } as http.RequestOptions, (res) => {
        responded = true;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= MAX_ANSWER_BODY_BYTES) return;
          finish(done(res.statusCode ?? null, null));
          res.destroy(); // the socket too: it is not returned to the pool mid-body
        });
        res.on('end', () => finish(done(res.statusCode ?? null, null)));
        res.on('error', () => finish(done(res.statusCode ?? null, null)));
      });
      current = req;
      req.on('socket', (socket) => {
        // 'socket' is emitted before the request is flushed: a pooled socket is checked against
        // this delivery's addresses before a byte of it is written (the pool key makes this hold
        // by construction; this is the guard if it ever did not).
        if (req.reusedSocket && !checked.has(plainAddress(socket.remoteAddress))) {
          req.destroy(new BlockedTarget(`destino bloqueado: conexão reaproveitada para ${socket.remoteAddress ?? 'endereço desconhecido'}`));
        }
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return;
        // A kept-alive socket the receiver closed just as we reused it: nothing was answered, so
        // send once more on a fresh connection (Node's documented pattern; at-least-once anyway).
        if (!fresh && req.reusedSocket && !responded && STALE_SOCKET.has(err.code ?? '') && performance.now() < deadline) return send(addresses, true);
        finish(done(null, err instanceof BlockedTarget ? err.message : `falha de conexão: ${err.code ?? err.message}`));
      });
      req.end(opts.body);
    };

    resolveVerbatim(hostOf(url)).then((addresses) => {
      if (settled) return;
      const check = checkResolvedAddresses(addresses.map((a) => a.address), opts.allowPrivateTargets);
      if (!check.ok) return finish(done(null, `destino bloqueado: ${check.message}`));
      send(addresses, false);
    }, (err: NodeJS.ErrnoException) => finish(done(null, `falha de conexão: ${err.code ?? err.message}`)));
  });
}
