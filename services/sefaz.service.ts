import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Context, Service, ServiceSchema } from 'moleculer';
import type { SigningMaterial } from '../lib/issuer/types.js';
import { getKnex } from './shared/database.js';
import { runtimeOf } from './shared/runtime.js';
import { SefazClient, type Target } from './sefaz/client.js';
import { AuthorityTransport, transportOptions } from './sefaz/transport.js';
import { instrumentTransport } from './sefaz/transport-metrics.js';
import { metricsOf } from './shared/metrics.js';
import { loadOrCreateSimulatorPki } from './sefaz/simulator/pki.js';
import { issueSandboxA1, loadOrCreateSandboxCa } from './sefaz/simulator/sandbox-ca.js';
import { readPkcs12 } from '../lib/issuer/certificate.js';
import { SefazSimulator } from './sefaz/simulator/server.js';
import { parseFaultSpec } from './sefaz/simulator/faults.js';
import { AUTHORITY_EVENTS } from './shared/authority-events.js';
import { SefinClient } from './sefaz/sefin/client.js';
import type { SefinTarget } from '../lib/sefin/results.js';

/**
 * sefaz: the NF-e authority client (SOAP 1.2 over mutual TLS with the issuer's A1). Every action
 * returns a typed result from lib/sefaz/results.ts and never throws for an authority or network
 * failure: the emission service decides from `kind`. Transmissions are never retried here or by the
 * broker (no retryable errors are thrown); reads retry internally (see services/sefaz/client.ts).
 * With config.sefaz.embeddedSimulator this node also runs the authority simulator.
 */
const UF = { type: 'string', pattern: /^[A-Z]{2}$/ } as const;
const target = {
  uf: UF,
  model: { type: 'enum', values: ['55', '65'] },
  ambiente: { type: 'enum', values: [1, 2] },
  endpointUrl: { type: 'string', optional: true, nullable: true, max: 500 },
  sandbox: { type: 'boolean', optional: true },
} as const;
const issuerId = { type: 'string', min: 1, max: 64 } as const;
/** Key of the monitoring certificate in the agent pool; never an issuer id (those are UUIDs). */
const MONITOR_IDENTITY = 'platform-monitor';
/** CNPJ written in the sandbox monitoring certificate (the status service does not check it). */
const SANDBOX_MONITOR_CNPJ = '11222333000181';
const accessKey = { type: 'string', pattern: /^\d{6}[0-9A-Z]{12}\d{26}$/ } as const;
const cnpj = { type: 'string', pattern: /^[0-9A-Z]{12}\d{2}$/ } as const;

/** Sefin Nacional (NFS-e) calls: the issuer's A1 authenticates, the environment picks the host. */
const sefinTarget = {
  issuerId,
  ambiente: { type: 'enum', values: [1, 2] },
  endpointUrl: { type: 'string', optional: true, nullable: true, max: 500 },
  sandbox: { type: 'boolean', optional: true },
} as const;
const idDps = { type: 'string', pattern: /^DPS\d{42}$/ } as const;
const chaveAcesso = { type: 'string', pattern: /^\d{50}$/ } as const;

/** What the handlers below see as `this`: the service, the clients `started` builds and its methods. */
type Local = Service & {
  client: SefazClient;
  sefin: SefinClient;
  simulator: SefazSimulator | null;
  transport?: AuthorityTransport;
  stopMetrics?: () => void;
  /** Issuer A1s fetched for mutual TLS, each kept for a minute (materialFor). */
  materials?: Map<string, { at: number; material: SigningMaterial }>;
  /** undefined: not loaded yet; null: none in production without MONITOR_CERT_*. */
  monitorCert?: SigningMaterial | null;
  materialFor(issuerId: string): Promise<SigningMaterial>;
  monitorMaterial(): Promise<SigningMaterial | null>;
};
/** Moleculer types `this` of lifecycle hooks as the bare Service: this is ours. */
const local = (service: Service) => service as Local;

const SefazService: ServiceSchema = {
  name: 'sefaz',
  version: 1,
  settings: { rest: '/' },

  actions: {
    authorize: {
      visibility: 'public',
      params: { $$strict: true, ...target, issuerId, signedNfeXml: { type: 'string', min: 1 }, accessKey, sync: { type: 'boolean', optional: true } },
      handler(this: Local, ctx: Context<Target & { issuerId: string; signedNfeXml: string; accessKey: string; sync?: boolean }>) {
        return this.client.authorize(ctx.params);
      },
    },
    fetchReceipt: {
      visibility: 'public',
      params: { $$strict: true, ...target, issuerId, receipt: { type: 'string', pattern: /^\d{15}$/ }, accessKey: { ...accessKey, optional: true } },
      handler(this: Local, ctx: Context<Target & { issuerId: string; receipt: string; accessKey?: string }>) {
        return this.client.fetchReceipt(ctx.params);
      },
    },
    consult: {
      visibility: 'public',
      params: { $$strict: true, ...target, issuerId, accessKey },
      handler(this: Local, ctx: Context<Target & { issuerId: string; accessKey: string }>) {
        return this.client.consult(ctx.params);
      },
    },
    status: {
      visibility: 'public',
      // monitor: the availability monitor's calls, authenticated with the platform's own certificate.
      params: { $$strict: true, ...target, issuerId: { ...issuerId, optional: true }, monitor: { type: 'boolean', optional: true } },
      handler(this: Local, ctx: Context<Target & { issuerId?: string; monitor?: boolean }>) {
        if (ctx.params.monitor && ctx.params.issuerId) throw new Error('status takes issuerId or monitor, not both');
        return this.client.status(ctx.params);
      },
    },
    sendEvent: {
      visibility: 'public',
      params: {
        $$strict: true, ...target, issuerId, cnpj, accessKey,
        sequence: { type: 'number', integer: true, min: 1, max: 20, optional: true, default: 1 },
        type: { type: 'enum', values: ['cancelamento', 'cce'] },
        protocol: { type: 'string', pattern: /^\d{15}$/, optional: true },
        justificativa: { type: 'string', min: 15, max: 255, optional: true },
        correcao: { type: 'string', min: 15, max: 1000, optional: true },
      },
      handler(this: Local, ctx: Context<Target & { issuerId: string; cnpj: string; accessKey: string; sequence: number; type: 'cancelamento' | 'cce'; protocol?: string; justificativa?: string; correcao?: string }>) {
        const p = ctx.params;
        if (p.type === 'cancelamento' && (!p.protocol || !p.justificativa)) throw new Error('cancelamento requires protocol and justificativa');
        if (p.type === 'cce' && !p.correcao) throw new Error('cce requires correcao');
        const detail = p.type === 'cancelamento'
          ? { type: 'cancelamento' as const, protocol: p.protocol!, justificativa: p.justificativa! }
          : { type: 'cce' as const, correcao: p.correcao! };
        return this.client.sendEvent({ ...p, detail });
      },
    },
    inutilizar: {
      visibility: 'public',
      params: {
        $$strict: true, ...target, issuerId, cnpj,
        serie: { type: 'number', integer: true, min: 0, max: 999 },
        inicio: { type: 'number', integer: true, min: 1, max: 999_999_999 },
        fim: { type: 'number', integer: true, min: 1, max: 999_999_999 },
        justificativa: { type: 'string', min: 15, max: 255 },
        ano: { type: 'string', pattern: /^\d{2}$/, optional: true },
      },
      handler(this: Local, ctx: Context<Target & { issuerId: string; cnpj: string; serie: number; inicio: number; fim: number; justificativa: string; ano?: string }>) {
        if (ctx.params.fim < ctx.params.inicio) throw new Error('fim must not be lower than inicio');
        return this.client.inutilizar(ctx.params);
      },
    },

    // NFS-e (Sefin Nacional): typed results of lib/sefin/results.ts, never thrown for Sefin or network failures.
    nfseSubmit: {
      visibility: 'public',
      params: { $$strict: true, ...sefinTarget, signedDpsXml: { type: 'string', min: 1 }, idDps },
      handler(this: Local, ctx: Context<SefinTarget & { signedDpsXml: string; idDps: string }>) {
        return this.sefin.submit(ctx.params);
      },
    },
    nfseConsultDps: {
      visibility: 'public',
      params: { $$strict: true, ...sefinTarget, idDps },
      handler(this: Local, ctx: Context<SefinTarget & { idDps: string }>) {
        return this.sefin.consultDps(ctx.params);
      },
    },
    nfseConsult: {
      visibility: 'public',
      params: { $$strict: true, ...sefinTarget, chaveAcesso },
      handler(this: Local, ctx: Context<SefinTarget & { chaveAcesso: string }>) {
        return this.sefin.consult(ctx.params);
      },
    },
    nfseEvent: {
      visibility: 'public',
      params: { $$strict: true, ...sefinTarget, chaveAcesso, signedEventXml: { type: 'string', min: 1 } },
      handler(this: Local, ctx: Context<SefinTarget & { chaveAcesso: string; signedEventXml: string }>) {
        return this.sefin.event(ctx.params);
      },
    },
    nfseMunicipality: {
      visibility: 'public',
      params: { $$strict: true, ...sefinTarget, codigoMunicipio: { type: 'string', pattern: /^\d{7}$/ } },
      handler(this: Local, ctx: Context<SefinTarget & { codigoMunicipio: string }>) {
        return this.sefin.municipality(ctx.params);
      },
    },
  },

  methods: {
    /**
     * The issuer's A1 for mutual TLS, kept for a minute per issuer: one round trip (and one copy of
     * the key over the transporter) per minute instead of per call. A replaced certificate is
     * picked up within that minute; the old one stays valid for TLS meanwhile.
     */
    async materialFor(this: Local, issuerId: string): Promise<SigningMaterial> {
      this.materials ??= new Map<string, { at: number; material: SigningMaterial }>();
      const hit = this.materials.get(issuerId);
      if (hit && Date.now() - hit.at < 60_000) return hit.material;
      const material = (await this.broker.call('v1.issuer.signingMaterial', { issuerId })) as SigningMaterial;
      if (this.materials.size > 1000) this.materials.clear();
      this.materials.set(issuerId, { at: Date.now(), material });
      return material;
    },

    /**
     * The platform's monitoring certificate: MONITOR_CERT_FILE / MONITOR_CERT_BASE64 opened once,
     * or outside production one issued by the sandbox CA (trusted by the embedded simulator only),
     * so `npm start` monitors the simulator with no configuration. Kept in this process only.
     */
    async monitorMaterial(this: Local): Promise<SigningMaterial | null> {
      if (this.monitorCert !== undefined) return this.monitorCert;
      const { config } = runtimeOf(this.broker);
      const cert = config.monitor.certificate;
      let parsed;
      if (cert) {
        parsed = readPkcs12(cert.pfx.reveal(), cert.password.reveal());
      } else if (config.env !== 'production') {
        const password = randomBytes(18).toString('base64url');
        const a1 = issueSandboxA1(config.sefaz.simulatorDir, { cnpj: SANDBOX_MONITOR_CNPJ, razaoSocial: 'FISCAL API MONITOR SANDBOX', password });
        parsed = readPkcs12(Buffer.from(a1.pfxBase64, 'base64'), password);
      } else {
        this.monitorCert = null;
        return null;
      }
      this.monitorCert = { issuerId: MONITOR_IDENTITY, fingerprint: parsed.fingerprint, keyPem: parsed.keyPem, certPem: parsed.certPem, chainPem: parsed.chainPem, notAfter: parsed.notAfter };
      this.logger.info({ subject: parsed.subject, notAfter: parsed.notAfter, sandbox: !cert }, 'monitoring certificate loaded');
      return this.monitorCert;
    },
  },

  async started(this: Service) {
    const self = local(this);
    const { config, clock } = runtimeOf(self.broker);
    self.simulator = null;
    if (config.sefaz.embeddedSimulator) {
      const s = config.sefaz;
      self.simulator = new SefazSimulator({
        knex: await getKnex(config),
        pki: loadOrCreateSimulatorPki(s.simulatorDir),
        clientCaPems: [
          ...(s.simulatorClientCaFile ? [readFileSync(s.simulatorClientCaFile, 'utf8')] : []),
          // The sandbox CA of `npm run admin -- test-certificate`, for trying the API locally.
          ...(config.env !== 'production' ? [loadOrCreateSandboxCa(s.simulatorDir).certPem] : []),
        ],
        port: s.simulatorPort,
        adminPort: s.simulatorAdminPort,
        now: () => clock.now(),
        faults: s.simulatorFaults.map(parseFaultSpec),
        sefinNonAdherent: s.simulatorSefinNonAdherent,
        log: (msg: string, extra?: Record<string, unknown>) => self.logger.warn(extra ?? {}, msg),
      });
      await self.simulator.start();
      self.logger.info({ url: self.simulator.url, admin: self.simulator.adminUrl }, 'authority simulator started');
    }
    // One way to the authorities per node (agents, per-certificate bulkhead, breaker per UF),
    // shared by every authority client this node runs (services/sefaz/transport.ts).
    self.transport = new AuthorityTransport(transportOptions(config, () => clock.now().getTime()));
    self.stopMetrics = instrumentTransport(self.transport, metricsOf(self.broker), () => clock.now().getTime());
    self.client = new SefazClient({
      config,
      transport: self.transport,
      now: () => clock.now(),
      material: (id: string) => self.materialFor(id),
      monitorMaterial: () => self.monitorMaterial(),
      simulator: () => (self.simulator ? { url: self.simulator.url, caPem: self.simulator.caPem } : null),
      // Broadcast, so every monitor and emission node hears it; each reaction is idempotent and its
      // state is in Postgres (a lost event only leaves the regular schedules to do the work).
      events: {
        circuitOpened: (ref) => { self.logger.warn(ref, 'authority circuit opened'); void self.broker.broadcast(AUTHORITY_EVENTS.circuitOpened, ref); },
        recovered: (ref) => { self.logger.info(ref, 'authority answering again'); void self.broker.broadcast(AUTHORITY_EVENTS.recovered, ref); },
        observed: (o) => { void self.broker.broadcast(AUTHORITY_EVENTS.observed, o); },
      },
    });
    self.sefin = new SefinClient({
      config,
      transport: self.transport,
      now: () => clock.now(),
      material: (id: string) => self.materialFor(id),
      simulator: () => (self.simulator ? { url: self.simulator.url, caPem: self.simulator.caPem } : null),
    });
  },

  async stopped(this: Service) {
    const self = local(this);
    self.stopMetrics?.();
    self.client?.close();
    self.transport?.close();
    await self.simulator?.stop();
  },
};

export default SefazService;
