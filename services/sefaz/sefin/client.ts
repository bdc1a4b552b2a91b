import type { AppConfig } from '../../../config.js';
import type { SigningMaterial } from '../../../lib/issuer/types.js';
import type { CallEvidence } from '../../../lib/sefaz/breaker.js';
import type { InfrastructureReason } from '../../../lib/sefaz/results.js';
import { authorityBases, sefinUrl, twinBases, type SefinBases, type SefinOperation } from '../../../lib/sefin/endpoints.js';
import { toGzipBase64 } from '../../../lib/sefin/payload.js';
import * as A from '../../../lib/sefin/responses.js';
import type {
  DpsConsultResult, IssuedNfse, MunicipalityAdherenceResult, NfseConsultResult, NfseEventResult, NfseSubmitResult, SefinTarget,
} from '../../../lib/sefin/results.js';
import type { PostOutcome } from '../http-client.js';
import type { AuthorityTransport } from '../transport.js';
import { TrustStores } from '../trust.js';

/**
 * The Sefin Nacional client (NFS-e national standard): REST + JSON over mutual TLS with the
 * issuer's A1, every XML gzip + base64 inside the JSON. It goes through the node's one
 * AuthorityTransport, as the NF-e client does (services/sefaz/transport.ts): the same connections
 * per certificate, per-issuer queue and timeouts, with a circuit of its own per environment
 * (`sefin|<ambiente>|<trust>`) fed only by failures on the wire.
 *
 * Like the NF-e client it never throws for Sefin or the network: submissions and events are sent
 * once (`failed` when nothing left, `unknown` when it may have been processed); reads are repeated
 * up to `consultRetries` times and end `failed`.
 */
export interface SefinClientDeps {
  config: AppConfig;
  /** The node's shared way to the authorities (agents, bulkhead, breaker). */
  transport: AuthorityTransport;
  now(): Date;
  material(issuerId: string): Promise<SigningMaterial>;
  /** The in-process simulator, when this node runs it. */
  simulator(): { url: string; caPem: string } | null;
}

type Failure = { kind: 'failed' | 'unknown'; reason: InfrastructureReason; detail: string };
type Answer = { status: number; body: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const JSON_TYPE = 'application/json';
/** Sefin's text for a DPS already turned into an NFS-e (Anexo VI, rule E0014). */
const DUPLICATE_DPS = 'E0014';
/** Cancellation event type and its only sequence (TSIdEvento: "EVT" + chave + tipo + nSeq). */
const CANCELLATION = { tipoEvento: '101101', numSeqEvento: 1 } as const;

export class SefinClient {
  private readonly trust: TrustStores;

  constructor(private readonly deps: SefinClientDeps) {
    this.trust = new TrustStores(deps.config, deps.simulator);
  }

  /**
   * Hosts and trust of a call: an override (issuer endpoint) laid out like the simulator; the
   * simulator for sandbox issuers and for produção restrita unless SEFAZ_HOMOLOGATION_TARGET says
   * authority; else the real hosts of data/sefin/endpoints.json.
   */
  resolve(t: SefinTarget): { bases: SefinBases; trustId: string; ca: string[] | undefined } {
    const s = this.deps.config.sefaz;
    if (t.endpointUrl) {
      const ca = [...(this.trust.authority() ?? []), ...this.trust.simulatorCa()];
      return { bases: twinBases(t.endpointUrl), trustId: 'custom', ca: ca.length ? ca : undefined };
    }
    if (t.sandbox || (t.ambiente === 2 && s.homologationTarget === 'simulator')) {
      const sim = this.deps.simulator();
      const url = sim?.url ?? s.simulatorUrl;
      if (!url) throw new Error('no authority simulator: set SIMULATOR_URL or SIMULATOR_EMBEDDED=1');
      return { bases: twinBases(url), trustId: 'simulator', ca: this.trust.simulatorCa() };
    }
    return { bases: authorityBases(t.ambiente), trustId: 'authority', ca: this.trust.authority() };
  }



  /**
   * One HTTP exchange. `transmission` decides what a failure after the request left is: `unknown`
   * (it may have been processed) or `failed` (a read). Answers of any status come back as they are:
   * what a status means is the parser's business.
   */
  private async exchange(opts: {
    target: SefinTarget; op: SefinOperation; params?: Record<string, string | number>; method: 'POST' | 'GET';
    body?: Record<string, string>; transmission: boolean;
  }): Promise<Answer | Failure> {
    const { target } = opts;
    let where: ReturnType<SefinClient['resolve']>;
    let url: string;
    try {
      where = this.resolve(target);
      url = sefinUrl(where.bases, opts.op, opts.params);
    } catch (err) {
      return { kind: 'failed', reason: 'connect', detail: (err as Error).message };
    }
    const key = `sefin|${target.ambiente}|${where.trustId}`;
    return this.deps.transport.exchange<Answer | Failure>({
      key, identity: await this.deps.material(target.issuerId), trust: { id: where.trustId, ca: where.ca },
      url, method: opts.method, body: opts.body ? JSON.stringify(opts.body) : '', contentType: JSON_TYPE,
      interpret: (out) => interpret(out, opts.transmission),
      refused: (reason, detail) => ({ kind: 'failed', reason, detail }),
    });
  }

  /** Reads: repeat on infrastructure failure (not when the breaker is open). */
  private async read<R extends { kind: string }>(attempt: () => Promise<R>): Promise<R> {
    let result = await attempt();
    for (let i = 0; i < this.deps.config.sefaz.consultRetries; i++) {
      const r = result as unknown as Failure;
      if (r.kind !== 'failed' || r.reason === 'circuit-open') break;
      await sleep(this.deps.config.sefaz.retryDelayMs * 2 ** i);
      result = await attempt();
    }
    return result;
  }

  /** Runs a parser; an unreadable answer is `kind` with reason malformed-response. */
  private parse<R>(kind: 'failed' | 'unknown', fn: () => R): R | Failure {
    try {
      return fn();
    } catch (err) {
      if (err instanceof A.MalformedAnswerError) return { kind, reason: 'malformed-response', detail: err.message };
      throw err;
    }
  }

  /**
   * POST /nfse with the signed DPS. Sent once. An E0014 rejection (this DPS already has an
   * NFS-e: an earlier attempt reached Sefin) is settled by the consult by idDps, so the caller gets
   * the NFS-e Sefin already issued instead of a rejection of its own resend.
   */
  async submit(p: SefinTarget & { signedDpsXml: string; idDps: string }): Promise<NfseSubmitResult> {
    if (!p.signedDpsXml.includes(` Id="${p.idDps}"`)) throw new Error(`signedDpsXml does not carry infDPS Id ${p.idDps}`);
    const target = pick(p);
    const out = await this.exchange({
      target, op: 'submit', method: 'POST', body: { dpsXmlGZipB64: toGzipBase64(p.signedDpsXml) }, transmission: true,
    });
    if ('kind' in out) return out;
    const answer = this.parse('unknown', () => A.parseSubmitAnswer(out.status, out.body, p.idDps));
    if (answer.kind !== 'rejected' || !answer.erros.some((e) => e.codigo === DUPLICATE_DPS)) return answer;
    const existing = await this.consultDps({ ...target, idDps: p.idDps });
    if (existing.kind === 'authorized') return { ...existing, alertas: answer.erros };
    // Sefin has an NFS-e for this DPS but we could not read it: still open, settled by a later consult.
    if (existing.kind === 'failed') return { kind: 'unknown', reason: existing.reason, detail: `E0014; the consult by idDps failed: ${existing.detail}` };
    // Not found right after E0014 is Sefin contradicting itself.
    return { kind: 'unknown', reason: 'malformed-response', detail: 'E0014 but the consult by idDps found no NFS-e' };
  }

  /** GET /dps/{idDps} (the NFS-e's chave, if any) then GET /nfse/{chave}. */
  async consultDps(p: SefinTarget & { idDps: string }): Promise<DpsConsultResult> {
    const target = pick(p);
    return this.read(async (): Promise<DpsConsultResult> => {
      const dps = await this.exchange({ target, op: 'dps', params: { idDps: p.idDps }, method: 'GET', transmission: false });
      if ('kind' in dps) return dps as DpsConsultResult;
      const chave = this.parse('failed', () => A.parseDpsAnswer(dps.status, dps.body));
      if (chave === null) return { kind: 'not-found' };
      if (typeof chave !== 'string') return chave as DpsConsultResult;
      const nfse = await this.fetchNfse(target, chave, p.idDps);
      if (nfse === null) return { kind: 'failed', reason: 'malformed-response', detail: `DPS ${p.idDps} names chave ${chave} that Sefin does not find` };
      return 'kind' in nfse ? (nfse as DpsConsultResult) : { kind: 'authorized', ...nfse };
    });
  }

  private async fetchNfse(target: SefinTarget, chaveAcesso: string, idDps?: string): Promise<IssuedNfse | null | Failure> {
    const out = await this.exchange({ target, op: 'nfse', params: { chaveAcesso }, method: 'GET', transmission: false });
    if ('kind' in out) return out;
    return this.parse('failed', () => {
      const nfse = A.parseNfseAnswer(out.status, out.body, chaveAcesso);
      if (nfse && idDps && nfse.idDps !== idDps) throw new A.MalformedAnswerError(`NFS-e ${chaveAcesso} is of DPS ${nfse.idDps}`);
      return nfse;
    });
  }

  /** GET /nfse/{chave}, then whether its cancellation event (e101101, sequence 1) is registered. */
  async consult(p: SefinTarget & { chaveAcesso: string }): Promise<NfseConsultResult> {
    const target = pick(p);
    return this.read(async (): Promise<NfseConsultResult> => {
      const nfse = await this.fetchNfse(target, p.chaveAcesso);
      if (nfse === null) return { kind: 'not-found' };
      if ('kind' in nfse) return nfse as NfseConsultResult;
      const ev = await this.exchange({ target, op: 'evento', params: { chaveAcesso: p.chaveAcesso, ...CANCELLATION }, method: 'GET', transmission: false });
      if ('kind' in ev) return ev as NfseConsultResult;
      const cancel = this.parse('failed', () => A.parseEventConsultAnswer(ev.status, ev.body));
      if (cancel && 'reason' in cancel) return cancel as NfseConsultResult;
      return cancel ? { kind: 'canceled', ...nfse, cancelamento: { eventXml: cancel.eventXml, registeredAt: cancel.registeredAt } } : { kind: 'authorized', ...nfse };
    });
  }

  /** POST /nfse/{chave}/eventos with the signed pedRegEvento. Sent once. */
  async event(p: SefinTarget & { chaveAcesso: string; signedEventXml: string }): Promise<NfseEventResult> {
    const out = await this.exchange({
      target: pick(p), op: 'eventos', params: { chaveAcesso: p.chaveAcesso }, method: 'POST',
      body: { pedidoRegistroEventoXmlGZipB64: toGzipBase64(p.signedEventXml) }, transmission: true,
    });
    if ('kind' in out) return out;
    return this.parse('unknown', () => A.parseEventAnswer(out.status, out.body));
  }

  /** The municipality's convênio (municipal parameters of the ADN). */
  async municipality(p: SefinTarget & { codigoMunicipio: string }): Promise<MunicipalityAdherenceResult> {
    const target = pick(p);
    return this.read(async (): Promise<MunicipalityAdherenceResult> => {
      const out = await this.exchange({ target, op: 'convenio', params: { codigoMunicipio: p.codigoMunicipio }, method: 'GET', transmission: false });
      if ('kind' in out) return out as MunicipalityAdherenceResult;
      return this.parse('failed', () => A.parseConvenioAnswer(out.status, out.body)) as MunicipalityAdherenceResult;
    });
  }
}

function pick(p: SefinTarget): SefinTarget {
  return { issuerId: p.issuerId, ambiente: p.ambiente, sandbox: p.sandbox, endpointUrl: p.endpointUrl };
}

/** The typed outcome of one exchange, and what it says about Sefin for the breaker. */
function interpret(out: PostOutcome, transmission: boolean): { result: Answer | Failure; evidence: CallEvidence } {
  const maybe = transmission ? 'unknown' : 'failed';
  if (!out.ok) return { result: { kind: out.phase === 'before-send' ? 'failed' : maybe, reason: out.reason, detail: out.detail }, evidence: { kind: 'failure', origin: out.origin } };
  // 429: the ADN/Sefin front end's rate limit answers before anything is processed.
  if (out.status === 429) return { result: { kind: 'failed', reason: 'http-status', detail: `HTTP 429: ${out.body.slice(0, 200)}` }, evidence: { kind: 'http-status', status: 429 } };
  // 5xx carries no judgement of the document (a front end or Sefin itself failing); before our
  // body left it proves nothing was processed, after it may have been.
  if (out.status >= 500) return { result: { kind: out.bodyWritten ? maybe : 'failed', reason: 'http-status', detail: `HTTP ${out.status}: ${out.body.slice(0, 200)}` }, evidence: { kind: 'http-status', status: out.status } };
  // Any other status is an answer about this request (a rejection is a 4xx): what it means is the parser's business.
  return { result: { status: out.status, body: out.body }, evidence: { kind: 'answer' } };
}
