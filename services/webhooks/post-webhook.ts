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
export function resolveAll(host: string): Promise<string[]> {
  if (isIP(host)) return Promise.resolve([host]);
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) => (err ? reject(err) : resolve(addrs.map((a) => a.address))));
  });
}

class BlockedTarget extends Error {}

/**
 * POSTs one webhook. The SSRF guard runs inside the socket's own lookup, so the address checked
 * is the address connected to (a DNS answer that changed since configuration is re-checked:
 * DNS rebinding). No redirects are followed; the response body is discarded; the whole exchange
 * is bounded by `timeoutMs`. Never throws: failures come back as `error`.
 */
export function postWebhook(opts: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): PostResult => ({ statusCode, error, latencyMs: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return Promise.resolve(done(null, 'URL inválida'));
  }
  const host = hostOf(url);
  if (isIP(host)) {
    const check = checkResolvedAddresses([host], opts.allowPrivateTargets);
    if (!check.ok) return Promise.resolve(done(null, `destino bloqueado: ${check.message}`));
  }
  const guardedLookup = (hostname: string, options: any, callback: any) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) => {
      if (err) return callback(err);
      const check = checkResolvedAddresses(addrs.map((a) => a.address), opts.allowPrivateTargets);
      if (!check.ok) return callback(new BlockedTarget(`destino bloqueado: ${check.message}`));
      const wanted = options?.family === 6 ? addrs.filter((a) => a.family === 6) : options?.family === 4 ? addrs.filter((a) => a.family === 4) : addrs;
      const chosen = wanted[0] ?? addrs[0]!;
      if (options?.all) return callback(null, wanted.length ? wanted : addrs);
      return callback(null, chosen.address, chosen.family);
    });
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => { if (!settled) { settled = true; clearTimeout(timer); resolve(r); } };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: { ...opts.headers, 'Content-Length': String(Buffer.byteLength(opts.body)) },
      lookup: guardedLookup as any,
      agent: false,
    }, (res) => {
      res.resume();
      res.on('end', () => finish(done(res.statusCode ?? null, null)));
      res.on('error', () => finish(done(res.statusCode ?? null, null)));
    });
    const timer = setTimeout(() => {
      finish(done(null, `sem resposta em ${opts.timeoutMs} ms`));
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err) => finish(done(null, err instanceof BlockedTarget ? err.message : `falha de conexão: ${(err as NodeJS.ErrnoException).code ?? err.message}`)));
    req.end(opts.body);
  });
}
