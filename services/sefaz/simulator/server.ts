import https from 'node:https';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Knex } from 'knex';
import { soap12Result, soapPayload, soapServiceOf, MalformedSoapError } from '../../../lib/sefaz/soap.js';
import { isSefazService, type SefazService } from '../../../lib/sefaz/services.js';
import { certificateCnpj } from '../../../lib/sefaz/simulator/certificate-cnpj.js';
import { UF_CODES } from '../../../lib/nfe/access-key.js';
import { retConsStatServ } from '../../../lib/sefaz/simulator/responses.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { migrateSchema } from '../../shared/migrations.js';
import { migrations } from '../../../migrations/simulator/index.js';
import { FaultBoard, parseFaultSpec, type FaultSpec } from './faults.js';
import { nfeHandlers } from './nfe-handlers.js';
import { readBody, Router, type RouteContext } from './router.js';
import { SimulatorStore } from './store.js';
import type { SimulatorPki } from './pki.js';
import { registerSefinRoutes } from './sefin/routes.js';
import { sefinSigningMaterial } from './sefin/signing.js';
import { SefinStore } from './sefin/store.js';

/**
 * The authority simulator: a real HTTPS server that requires a client certificate signed by a
 * trusted CA (its own, plus `clientCaPems`, e.g. ICP-Brasil or the tests' CA), serving the NF-e 4.00
 * SOAP services at /ws/<UF>/<Service>.asmx (and /ws/<Service>.asmx, UF from the message), plus a
 * plain-HTTP admin listener on loopback for fault injection:
 *   GET    /__admin/faults            → { faults: Fault[] }
 *   POST   /__admin/faults  FaultSpec → 201 { fault }
 *   DELETE /__admin/faults[?uf=SP|?id=…] → { removed }
 */
export interface SimulatorOptions {
  knex: Knex;
  pki: SimulatorPki;
  clientCaPems?: string[];
  host?: string;
  port?: number;
  adminPort?: number;
  now?: () => Date;
  faults?: FaultSpec[];
  cancelWindowMs?: number;
  /** The Sefin Nacional (NFS-e) routes: IBGE codes of municipalities without convênio (E0037). */
  sefinNonAdherent?: readonly string[];
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SIGLAS = new Set([...Object.values(UF_CODES), 'AN', 'SVRS', 'SVAN', 'SVCAN', 'SVCRS']);

export class SefazSimulator {
  readonly faults = new FaultBoard();
  readonly router = new Router();
  /** Municipalities the simulated Sefin treats as without convênio (E0037); tests may change it live. */
  readonly sefinNonAdherent: Set<string>;
  private server: https.Server | null = null;
  private admin: http.Server | null = null;
  private readonly now: () => Date;
  url = '';
  adminUrl = '';

  constructor(private readonly opts: SimulatorOptions) {
    this.now = opts.now ?? (() => new Date());
    for (const f of opts.faults ?? []) this.faults.add(f);
    const handlers = nfeHandlers(new SimulatorStore(opts.knex), { cancelWindowMs: opts.cancelWindowMs });
    this.sefinNonAdherent = new Set(opts.sefinNonAdherent ?? []);
    registerSefinRoutes(this.router, {
      store: new SefinStore(opts.knex), faults: this.faults, now: this.now, signing: sefinSigningMaterial(), nonAdherent: this.sefinNonAdherent,
    });
    this.router.add('POST', /^\/ws\/(?:([A-Z]{2,5})\/)?([A-Za-z0-9]+)\.asmx$/, ['uf', 'service'], (ctx) => this.soap(ctx, handlers));
  }

  get caPem(): string {
    return this.opts.pki.caPem;
  }

  async start(): Promise<void> {
    await migrateSchema(this.opts.knex, 'simulator', migrations);
    const host = this.opts.host ?? '127.0.0.1';
    const server = https.createServer({
      key: this.opts.pki.keyPem,
      cert: this.opts.pki.certPem,
      ca: [this.opts.pki.caPem, ...(this.opts.clientCaPems ?? [])],
      requestCert: true,
      rejectUnauthorized: true,
      keepAliveTimeout: 30_000,
    });
    // tls-flaky: abort the TCP connection before the handshake completes.
    server.prependListener('connection', (socket) => { if (this.faults.abortHandshake()) socket.destroy(); });
    server.on('tlsClientError', () => undefined);
    // Expect: 100-continue lets a fault hold the request before any of its body is read.
    server.on('checkContinue', (req, res) => void this.dispatch(req, res, true));
    server.on('request', (req, res) => void this.dispatch(req, res, false));
    await new Promise<void>((r) => server.listen(this.opts.port ?? 0, host, r));
    this.server = server;
    this.url = `https://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(server.address() as AddressInfo).port}`;

    const admin = http.createServer((req, res) => void this.adminRequest(req, res));
    await new Promise<void>((r) => admin.listen(this.opts.adminPort ?? 0, '127.0.0.1', r));
    this.admin = admin;
    this.adminUrl = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of [this.server, this.admin]) {
      if (!s) continue;
      s.closeAllConnections?.();
      await new Promise<void>((r) => s.close(() => r()));
    }
    this.server = null;
    this.admin = null;
  }

  private async dispatch(req: http.IncomingMessage, res: http.ServerResponse, expectsContinue: boolean): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const found = this.router.match(req.method ?? 'GET', path);
    let bodyPromise: Promise<string> | null = null;
    const ctx: RouteContext = {
      req, res, params: found?.params ?? {},
      body: () => {
        if (!bodyPromise) {
          if (expectsContinue) res.writeContinue();
          bodyPromise = readBody(req);
        }
        return bodyPromise;
      },
    };
    try {
      if (!found) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      await found.route.handler(ctx);
    } catch (err) {
      this.opts.log?.('simulator request failed', { err: (err as Error).message });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      else res.destroy();
    }
  }

  private async soap(ctx: RouteContext, handlers: Record<SefazService, (p: string, r: any) => Promise<string>>): Promise<void> {
    const { res } = ctx;
    const service = ctx.params.service!;
    const uf = ctx.params.uf && SIGLAS.has(ctx.params.uf) ? ctx.params.uf : null;
    if (!isSefazService(service)) { res.writeHead(404, { 'content-type': 'text/plain' }).end('unknown service'); return; }
    // Read the client certificate now: once the client gives up, the socket no longer has it.
    const peer = (ctx.req.socket as TLSSocket).getPeerCertificate?.();
    const clientCnpj = peer?.raw ? certificateCnpj(peer.raw) : null;
    if (this.faults.take('timeout-before-processing', uf, service)) return; // hold: no 100, no answer
    // A UF named in the path that is down refuses before reading anything (as a front end would).
    if (uf && service !== 'NFeStatusServico4' && this.faults.take('down', uf, service)) {
      res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('Service Unavailable');
      return;
    }
    const envelope = await ctx.body();
    let payload: string;
    try {
      if (soapServiceOf(envelope) !== service) throw new MalformedSoapError(`nfeDadosMsg namespace does not name ${service}`);
      payload = soapPayload(envelope, 'nfeDadosMsg');
    } catch (err) {
      res.writeHead(400, { 'content-type': 'application/soap+xml; charset=utf-8' })
        .end(`<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><soap12:Fault><soap12:Code><soap12:Value>soap12:Sender</soap12:Value></soap12:Code><soap12:Reason><soap12:Text xml:lang="pt">${(err as Error).message}</soap12:Text></soap12:Reason></soap12:Fault></soap12:Body></soap12:Envelope>`);
      return;
    }
    const msgUf = /<cUF>(\d{2})<\/cUF>/.exec(payload)?.[1] ?? /<chNFe>(\d{2})/.exec(payload)?.[1] ?? /<cOrgao>(\d{2})<\/cOrgao>/.exec(payload)?.[1];
    const effectiveUf = uf ?? (msgUf ? UF_CODES[msgUf] ?? null : null);
    const down = this.faults.take('down', effectiveUf, service);
    if (down) {
      if (service === 'NFeStatusServico4') {
        const cStat = down.cStat ?? 108;
        const xml = retConsStatServ({ tpAmb: /<tpAmb>1</.test(payload) ? '1' : '2', cUF: msgUf ?? '91', dhRecbto: brasiliaDateTime(this.now()) }, { cStat, xMotivo: cstatText(cStat) });
        this.reply(res, service, xml);
      } else {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      }
      return;
    }
    const slow = this.faults.take('slow', effectiveUf, service);
    if (slow) await sleep(slow.delayMs ?? 2_000);
    const result = await handlers[service](payload, { clientCnpj, uf: effectiveUf, now: this.now() });
    if (this.faults.take('drop-after-processing', effectiveUf, service)) { ctx.req.socket.destroy(); return; }
    this.reply(res, service, result);
  }

  private reply(res: http.ServerResponse, service: SefazService, resultXml: string): void {
    res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(soap12Result(service, resultXml));
  }

  private async adminRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://admin');
    const json = (status: number, body: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)); };
    if (url.pathname !== '/__admin/faults') return json(404, { error: 'not found' });
    try {
      if (req.method === 'GET') return json(200, { faults: this.faults.list() });
      if (req.method === 'POST') {
        const spec = parseFaultSpec(JSON.parse(await readBody(req, 64 * 1024)));
        return json(201, { fault: this.faults.add(spec) });
      }
      if (req.method === 'DELETE') {
        const removed = this.faults.clear({ id: url.searchParams.get('id') ?? undefined, uf: url.searchParams.get('uf') ?? undefined });
        return json(200, { removed });
      }
      return json(405, { error: 'method not allowed' });
    } catch (err) {
      return json(400, { error: (err as Error).message });
    }
  }
}
