import type { AppConfig } from '../../config.js';
import type { SigningMaterial } from '../../lib/issuer/types.js';
import { UF_BY_SIGLA } from '../../lib/nfe/access-key.js';
import type { CallEvidence } from '../../lib/sefaz/breaker.js';
import { SERVICE_DOWN, SERVICE_UP } from '../../lib/sefaz/cstat.js';
import { endpointFor } from '../../lib/sefaz/endpoints.js';
import * as M from '../../lib/sefaz/messages.js';
import * as P from '../../lib/sefaz/parsers.js';
import type { AuthorizationResult, ConsultResult, EventResult, InfrastructureReason, InutilizacaoResult, StatusResult } from '../../lib/sefaz/results.js';
import type { SefazService } from '../../lib/sefaz/services.js';
import { soap12 } from '../../lib/sefaz/soap.js';
import { assertOutgoing, type OutgoingSchema } from '../../lib/sefaz/validate.js';
import { brasiliaDateTime } from '../../lib/sefaz/xml.js';
import { RecoveryProbes, type AuthorityEvents, type AuthorityKey, type Caller } from './recovery-probes.js';
import type { Target } from './target.js';
import { AuthorityTransport, transportOptions } from './transport.js';
import type { PostOutcome } from './http-client.js';
import { signerFor } from './xmldsig.js';
import { TrustStores } from './trust.js';

/**
 * The authority client behind the sefaz service: endpoint choice, message building and
 * classification into the typed results, over the shared AuthorityTransport (mTLS agents, the
 * per-certificate bulkhead, timeouts, the per-UF breaker). Transmissions (authorize, event,
 * inutilização) are sent once; reads (consult, status, receipt) are repeated up to
 * `consultRetries` times on an infrastructure failure and then return `failed` — so callers always
 * get a typed result and the broker's retry policy (which would surface an exception) is not involved.
 */
export type { Target };
export type { AuthorityEvents };

export interface ClientDeps {
  config: AppConfig;
  now(): Date;
  material(issuerId: string): Promise<SigningMaterial>;
  /** The platform's own monitoring certificate (status checks of the availability monitor), or null. */
  monitorMaterial(): Promise<SigningMaterial | null>;
  /** The in-process simulator, when this node runs it. */
  simulator(): { url: string; caPem: string } | null;
  events?: AuthorityEvents;
  /** The node's shared transport (other authority clients use it too); one of its own otherwise. */
  transport?: AuthorityTransport;
}

type Failure = { kind: 'failed' | 'unknown'; reason: InfrastructureReason; detail: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LOCAL_REFUSALS: ReadonlySet<InfrastructureReason> = new Set(['circuit-open', 'queue-full', 'queue-timeout']);

export class SefazClient {
  readonly transport: AuthorityTransport;
  private readonly probes: RecoveryProbes;
  private readonly trust: TrustStores;

  constructor(private readonly deps: ClientDeps) {
    const s = deps.config.sefaz;
    this.trust = new TrustStores(deps.config, deps.simulator);
    this.probes = new RecoveryProbes({
      delayMs: s.breakerCooldownMs,
      isOpen: (key) => this.transport.breaker.state(key, this.deps.now().getTime()) !== 'closed',
      probe: (target, caller) => this.status({ ...target, ...caller }),
      events: deps.events,
      now: () => this.deps.now(),
    });
    this.transport = deps.transport ?? new AuthorityTransport(transportOptions(deps.config, () => this.deps.now().getTime()));
    this.transport.onCircuitChange((key, change) => this.probes.changed(key, change));
  }

  get breaker() {
    return this.transport.breaker;
  }

  close(): void {
    this.probes.stop();
    this.transport.close();
  }

  /** Where a call goes and which CAs it trusts. */
  resolve(t: Target, service: SefazService): { url: string; trustId: string; ca: string[] | undefined } {
    const s = this.deps.config.sefaz;
    const simulatorBase = () => {
      const sim = this.deps.simulator();
      if (sim) return sim.url;
      if (s.simulatorUrl) return s.simulatorUrl;
      throw new Error('no authority simulator: set SIMULATOR_URL or SIMULATOR_EMBEDDED=1');
    };
    const simPath = (base: string) => `${base.replace(/\/$/, '')}/ws/${t.uf}/${service}.asmx`;
    if (t.endpointUrl) {
      const url = t.endpointUrl.includes('{service}') ? t.endpointUrl.replace('{service}', service) : simPath(t.endpointUrl);
      const ca = [...(this.trust.authority() ?? []), ...this.trust.simulatorCa()];
      return { url, trustId: 'custom', ca: ca.length ? ca : undefined };
    }
    if (t.sandbox || (t.ambiente === 2 && s.homologationTarget === 'simulator')) {
      return { url: simPath(simulatorBase()), trustId: 'simulator', ca: this.trust.simulatorCa() };
    }
    return { url: endpointFor({ uf: t.uf, model: t.model, ambiente: t.ambiente, service }).url, trustId: 'authority', ca: this.trust.authority() };
  }



  /**
   * Sends one message and interprets the answer. `transmission` decides what an after-send failure
   * is: `unknown` for transmissions (it may have been processed), `failed` for reads.
   */
  private async call<R>(opts: Caller & {
    target: Target; service: SefazService; xml: string; schema: OutgoingSchema;
    transmission: boolean; parse(body: P.Answer): R;
  }): Promise<R | Failure> {
    const { target, service } = opts;
    assertOutgoing(opts.schema, opts.xml); // our bug if it fails: throw, never send
    const key = this.probes.remember(target, opts);
    const fail = (kind: 'failed' | 'unknown', reason: InfrastructureReason, detail: string): Failure => ({ kind, reason, detail });
    let where: ReturnType<SefazClient['resolve']>;
    try {
      where = this.resolve(target, service);
    } catch (err) {
      return fail('failed', 'connect', (err as Error).message);
    }
    const soap = soap12(service, opts.xml);
    const trust = { id: where.trustId, ca: where.ca };
    const exchange = {
      key, trust, url: where.url, body: soap.body, contentType: soap.contentType,
      // The monitor's status call is the probe of the circuit (issue 20, defect 3): never short-circuited.
      probe: !!(opts.monitor || opts.probe),
      interpret: (out: PostOutcome) => this.interpret(out, opts, key),
      refused: (reason: InfrastructureReason, detail: string) => fail('failed', reason, detail),
    };
    if (opts.monitor) {
      const material = await this.deps.monitorMaterial();
      if (!material) return fail('failed', 'tls', 'no monitoring certificate configured (MONITOR_CERT_FILE)');
      // An expired certificate is refused by the authority anyway; not sending it saves a
      // handshake and keeps the reason exact (our certificate, not the authority).
      if (Date.parse(material.notAfter) <= this.deps.now().getTime()) return fail('failed', 'tls', `monitoring certificate expired at ${material.notAfter}`);
      return this.transport.exchange({ ...exchange, identity: material });
    }
    if (opts.issuerId) return this.transport.exchange({ ...exchange, identity: await this.deps.material(opts.issuerId) });
    const pooled = await this.transport.exchangePooled(where.trustId, exchange);
    return pooled ?? fail('failed', 'tls', 'no client certificate: pass issuerId (mutual TLS needs an A1)');
  }

  /** The typed result of one raw outcome, and what it says about the authority (breaker, monitor). */
  private interpret<R>(out: PostOutcome, opts: Caller & { transmission: boolean; parse(body: P.Answer): R; target: Target }, key: AuthorityKey): { result: R | Failure; evidence: CallEvidence } {
    const maybe = opts.transmission ? 'unknown' : 'failed';
    if (!out.ok) return { result: { kind: out.phase === 'before-send' ? 'failed' : maybe, reason: out.reason, detail: out.detail }, evidence: { kind: 'failure', origin: out.origin } };
    if (out.status < 200 || out.status >= 300) {
      // An HTTP error before our body left proves nothing was processed; after, it may have been.
      return { result: { kind: out.bodyWritten ? maybe : 'failed', reason: 'http-status', detail: `HTTP ${out.status}: ${out.body.slice(0, 200)}` }, evidence: { kind: 'http-status', status: out.status } };
    }
    // Read once: the monitor's evidence and the typed result come from the same parse. An unreadable
    // body goes to `parse` as text, which throws the reason reported as malformed-response.
    let answer: P.Answer;
    try { answer = P.readAnswer(out.body); } catch { answer = out.body; }
    try {
      const root = typeof answer === 'string' ? null : P.rootStatus(answer);
      // The monitor records its own answers; everyone else's 107/108/109 is evidence for it.
      if (root && (!opts.monitor || opts.probe) && (root.cStat === SERVICE_UP || SERVICE_DOWN.has(root.cStat))) {
        this.probes.observed(key, opts.target, root);
      }
      try {
        return { result: opts.parse(answer), evidence: { kind: 'answer', ...(root ? { cStat: root.cStat } : {}) } };
      } catch (err) {
        return { result: { kind: maybe, reason: 'malformed-response', detail: (err as Error).message }, evidence: { kind: 'malformed' } };
      }
    } finally {
      if (typeof answer !== 'string') answer.dispose(); // libxml2 memory
    }
  }

  /** Reads: repeat on infrastructure failure (not when refused here). */
  private async read<R extends { kind: string }>(attempt: () => Promise<R>): Promise<R> {
    let result = await attempt();
    for (let i = 0; i < this.deps.config.sefaz.consultRetries; i++) {
      const r = result as unknown as Failure;
      // Refused here (circuit open, issuer's queue full or too slow): repeating would only wait again.
      if (r.kind !== 'failed' || LOCAL_REFUSALS.has(r.reason)) break;
      await sleep(this.deps.config.sefaz.retryDelayMs * 2 ** i);
      result = await attempt();
    }
    return result;
  }

  private idLote(): string {
    return String(this.deps.now().getTime()).slice(-15);
  }

  async authorize(p: Target & { issuerId: string; signedNfeXml: string; accessKey: string; sync?: boolean }): Promise<AuthorizationResult> {
    const xml = M.buildEnviNFe({ idLote: this.idLote(), signedNfeXml: p.signedNfeXml, sync: p.sync !== false });
    return this.call({
      target: p, service: 'NFeAutorizacao4', issuerId: p.issuerId, xml, schema: 'enviNFe', transmission: true,
      parse: (body) => P.parseRetEnviNFe(body, p.accessKey),
    }) as Promise<AuthorizationResult>;
  }

  async fetchReceipt(p: Target & { issuerId: string; receipt: string; accessKey?: string }): Promise<AuthorizationResult> {
    const xml = M.buildConsReciNFe({ ambiente: p.ambiente, receipt: p.receipt });
    return this.read(() => this.call({
      target: p, service: 'NFeRetAutorizacao4', issuerId: p.issuerId, xml, schema: 'consReciNFe', transmission: false,
      parse: (body) => P.parseRetConsReciNFe(body, p.accessKey),
    }) as Promise<AuthorizationResult>);
  }

  async consult(p: Target & { issuerId: string; accessKey: string }): Promise<ConsultResult> {
    const xml = M.buildConsSitNFe({ ambiente: p.ambiente, accessKey: p.accessKey });
    return this.read(() => this.call({
      target: p, service: 'NFeConsultaProtocolo4', issuerId: p.issuerId, xml, schema: 'consSitNFe', transmission: false,
      parse: P.parseRetConsSitNFe,
    }) as Promise<ConsultResult>);
  }

  /** `monitor`: authenticate with the platform's monitoring certificate instead of an issuer's A1. */
  async status(p: Target & Caller): Promise<StatusResult> {
    const cUF = UF_BY_SIGLA[p.uf];
    if (!cUF) throw new Error(`unknown UF ${p.uf}`);
    const xml = M.buildConsStatServ({ ambiente: p.ambiente, cUF });
    return this.read(() => this.call({
      target: p, service: 'NFeStatusServico4', issuerId: p.issuerId, monitor: p.monitor, probe: p.probe, xml, schema: 'consStatServ', transmission: false,
      parse: (body) => P.parseRetConsStatServ(body, brasiliaDateTime(this.deps.now())),
    }) as Promise<StatusResult>);
  }

  async sendEvent(p: Target & { issuerId: string; cnpj: string; accessKey: string; sequence: number; detail: M.EventDetail }): Promise<EventResult> {
    const material = await this.deps.material(p.issuerId);
    const { xml, signedEvento } = await M.buildEnvEvento({
      idLote: this.idLote(), cOrgao: p.accessKey.slice(0, 2), ambiente: p.ambiente, cnpj: p.cnpj, accessKey: p.accessKey,
      sequence: p.sequence, at: this.deps.now(), detail: p.detail,
    }, signerFor(material));
    return this.call({
      target: p, service: 'NFeRecepcaoEvento4', issuerId: p.issuerId, xml,
      schema: p.detail.type === 'cancelamento' ? 'envEventoCancNFe' : 'envCCe', transmission: true,
      parse: (body) => P.parseRetEnvEvento(body, signedEvento),
    }) as Promise<EventResult>;
  }

  async inutilizar(p: Target & { issuerId: string; cnpj: string; serie: number; inicio: number; fim: number; justificativa: string; ano?: string }): Promise<InutilizacaoResult> {
    const cUF = UF_BY_SIGLA[p.uf];
    if (!cUF) throw new Error(`unknown UF ${p.uf}`);
    const material = await this.deps.material(p.issuerId);
    const xml = await M.buildInutNFe({
      cUF, ambiente: p.ambiente, ano: p.ano ?? brasiliaDateTime(this.deps.now()).slice(2, 4), cnpj: p.cnpj, model: p.model,
      serie: p.serie, inicio: p.inicio, fim: p.fim, justificativa: p.justificativa,
    }, signerFor(material));
    return this.call({
      target: p, service: 'NFeInutilizacao4', issuerId: p.issuerId, xml, schema: 'inutNFe', transmission: true,
      parse: (body) => P.parseRetInutNFe(body, xml),
    }) as Promise<InutilizacaoResult>;
  }
}
