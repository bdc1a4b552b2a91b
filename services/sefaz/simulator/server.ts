import https from 'node:https';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Knex } from 'knex';
import type { SefazService } from '../../../lib/sefaz/services.js';
import { clientCnpjOf } from './client-cnpj.js';
import { UF_CODES } from '../../../lib/nfe/access-key.js';
import { retConsStatServ } from '../../../lib/sefaz/simulator/responses.js';
import {
  declaredVersion, parseSoapRequest, soapActionFault, soapAnswer, soapFault, SoapFaultError, versionMismatchFault, type SoapRequestMessage, type SoapVersion,
} from '../../../lib/sefaz/simulator/envelope.js';
import { soapAction } from '../../../lib/sefaz/soap.js';
import { resolvePath, soapPathPattern } from '../../../lib/sefaz/simulator/paths.js';
import { messageFields, type ReceivedMessage } from '../../../lib/sefaz/simulator/message.js';
import { refuseMessage } from '../../../lib/sefaz/simulator/refusals.js';
import { motivo, SIMULATOR_TP_AMB } from '../../../lib/sefaz/simulator/codes.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { brasiliaDateTime } from '../../../lib/sefaz/xml.js';
import { MAX_MESSAGE_BYTES } from '../../../lib/sefaz/message-limit.js';
import { migrateSchema } from '../../shared/migrations.js';
import { migrations } from '../../../migrations/simulator/index.js';
import { FaultBoard, parseFaultSpec, type FaultSpec } from './faults.js';
import { nfeHandlers, type NfeHandler } from './nfe-handlers.js';
import { readBody, Router, type RouteContext } from './router.js';
import { SimulatorStore } from './store.js';
import { SignatureChecker } from './signatures.js';
import { SignerCertificates } from './signer-certificates.js';
import { RejectionLog } from './rejection-log.js';
import type { SimulatorPki } from './pki.js';
import { registerSefinRoutes } from './sefin/routes.js';
import { sefinSigningMaterial } from './sefin/signing.js';
import { SefinStore } from './sefin/store.js';

/**
 * The authority simulator: a real HTTPS server that requires a client certificate signed by a
 * trusted CA (its own, plus `clientCaPems`, e.g. ICP-Brasil, the sandbox CA or the tests' CA), serving
 * the NF-e 4.00 SOAP services (SOAP 1.1 and 1.2) at the authorities' own paths
 * (data/sefaz/nfe-endpoints.json, case-insensitive) and at the aliases /ws/<UF>/<Service>.asmx and
 * /ws/<Service>.asmx (lib/sefaz/simulator/paths.ts), plus a plain-HTTP admin listener on loopback:
 *   GET    /__admin/faults            → { faults: Fault[] }
 *   POST   /__admin/faults  FaultSpec → 201 { fault }
 *   DELETE /__admin/faults[?uf=SP|?id=…] → { removed }
 *   GET    /__admin/rejeicoes[?limit=N] → { rejeicoes: RejectionDetail[] } (schema and signature details)
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
  /** The Sefin Nacional (NFS-e) routes: IBGE codes of municipalities without convênio (E0037). */
  sefinNonAdherent?: readonly string[];
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SIGLAS = new Set(Object.values(UF_CODES));

export class SefazSimulator {
  readonly faults = new FaultBoard();
  readonly router = new Router();
  /** Municipalities the simulated Sefin treats as without convênio (E0037); tests may change it live. */
  readonly sefinNonAdherent: Set<string>;
  readonly rejections: RejectionLog;
  private server: https.Server | null = null;
  private admin: http.Server | null = null;
  private readonly now: () => Date;
  url = '';
  adminUrl = '';

  constructor(private readonly opts: SimulatorOptions) {
    this.now = opts.now ?? (() => new Date());
    for (const f of opts.faults ?? []) this.faults.add(f);
    this.rejections = new RejectionLog(200, opts.log);
    // The signing certificate must chain to a CA the simulator trusts for TLS clients (its stand-ins
    // for ICP-Brasil); its own CA signs nothing but its server certificate. One memo of signer
    // certificates for both authorities: a provider that issues NF-e and NFS-e signs both with one.
    const certificates = new SignerCertificates(opts.clientCaPems ?? []);
    const signatures = new SignatureChecker(certificates);
    const handlers = nfeHandlers({ store: new SimulatorStore(opts.knex), signatures, rejections: this.rejections });
    this.sefinNonAdherent = new Set(opts.sefinNonAdherent ?? []);
    registerSefinRoutes(this.router, {
      store: new SefinStore(opts.knex), faults: this.faults, now: this.now, signing: sefinSigningMaterial(), nonAdherent: this.sefinNonAdherent, certificates,
    });
    this.router.add('POST', soapPathPattern(), [], (ctx) => this.soap(ctx, handlers));
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

  private async soap(ctx: RouteContext, handlers: Record<SefazService, NfeHandler>): Promise<void> {
    const { req, res } = ctx;
    const target = resolvePath((req.url ?? '/').split('?')[0]!, req.headers.host);
    if (!target) { res.writeHead(404, { 'content-type': 'text/plain' }).end('unknown service'); return; }
    const service = target.service;
    const pathUf = target.authorizers.length === 1 && SIGLAS.has(target.authorizers[0]!) ? target.authorizers[0]! : null;
    const clientCnpj = clientCnpjOf(req.socket as TLSSocket);
    if (this.faults.take('timeout-before-processing', pathUf, service)) return; // hold: no 100, no answer
    // A UF named in the path that is down refuses before reading anything (as a front end would).
    if (pathUf && service !== 'NFeStatusServico4' && this.faults.take('down', pathUf, service)) {
      res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('Service Unavailable');
      return;
    }
    const envelope = await ctx.body();
    // The binding is the Content-Type's: faults are written in it, and the envelope must agree.
    const declared = declaredVersion(req.headers['content-type']);
    let parsed: SoapRequestMessage | undefined;
    try {
      if (declared === '1.1') { const wrong = soapActionFault(req.headers.soapaction, soapAction(service)); if (wrong) throw wrong; }
      parsed = parseSoapRequest(envelope);
      const mismatch = versionMismatchFault(declared, parsed.version);
      if (mismatch) throw mismatch;
      if (parsed.service !== service) throw new SoapFaultError(`nfeDadosMsg no namespace de ${parsed.service}, endereço de ${service}`, parsed.version);
    } catch (err) {
      parsed?.message.dispose();
      // The authorities' SOAP stacks answer an unreadable envelope with a Fault and HTTP 500.
      const fault = soapFault(declared, (err as Error).message, err instanceof SoapFaultError ? err.code : 'Client');
      res.writeHead(500, { 'content-type': fault.contentType }).end(fault.body);
      return;
    }
    const { message, version } = parsed;
    try {
      await this.answer(ctx, handlers, { service, pathUf, clientCnpj, authorizers: target.authorizers, model: target.model }, message, version);
    } finally {
      message.dispose();
    }
  }

  /** A readable request for `service`: faults that strike after reading it, else its handler's answer. */
  private async answer(
    { req, res }: RouteContext, handlers: Record<SefazService, NfeHandler>,
    to: { service: SefazService; pathUf: string | null; clientCnpj: string | null; authorizers: string[]; model: '55' | '65' | null },
    message: ReceivedMessage, version: SoapVersion,
  ): Promise<void> {
    const { service, pathUf } = to;
    // The message's UF, read only for a fault or a refusal before the handler.
    let peeked: string | null | undefined;
    const msgCuf = (): string | null => {
      if (peeked === undefined) {
        const f = messageFields(message.doc, ['cUF', 'cOrgao', 'chNFe']);
        peeked = [f.cUF, f.cOrgao, f.chNFe?.slice(0, 2)].find((v): v is string => !!v && /^\d{2}$/.test(v)) ?? null;
      }
      return peeked;
    };
    const faultUf = () => {
      if (pathUf || !this.faults.any()) return pathUf;
      const cUF = msgCuf();
      return cUF ? UF_CODES[cUF] ?? null : null;
    };
    const now = this.now();
    const at = () => ({ cUF: msgCuf() ?? '91', dhRecbto: brasiliaDateTime(now) });
    const down = this.faults.take('down', faultUf(), service);
    if (down) {
      if (service === 'NFeStatusServico4') {
        const cStat = down.cStat ?? 108;
        this.reply(res, version, service, retConsStatServ({ tpAmb: SIMULATOR_TP_AMB, ...at() }, { cStat, xMotivo: cstatText(cStat) }));
      } else {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      }
      return;
    }
    const slow = this.faults.take('slow', faultUf(), service);
    if (slow) await sleep(slow.delayMs ?? 2_000);
    // The message as it arrived in the envelope (its canonical form when it had to be re-read).
    const result = Buffer.byteLength(message.text, 'utf8') > MAX_MESSAGE_BYTES
      ? refuseMessage(service, message.text, motivo(214), at())
      : await handlers[service](message, { clientCnpj: to.clientCnpj, authorizers: to.authorizers, model: to.model, now });
    if (this.faults.take('drop-after-processing', faultUf(), service)) { req.socket.destroy(); return; }
    this.reply(res, version, service, result);
  }

  private reply(res: http.ServerResponse, version: SoapVersion, service: SefazService, resultXml: string): void {
    const answer = soapAnswer(version, service, resultXml);
    res.writeHead(200, { 'content-type': answer.contentType }).end(answer.body);
  }

  private async adminRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://admin');
    const json = (status: number, body: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)); };
    if (url.pathname === '/__admin/rejeicoes' && req.method === 'GET') {
      const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || 50, 1), 200);
      return json(200, { rejeicoes: this.rejections.list(limit) });
    }
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
