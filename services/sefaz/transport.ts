import type { Agent } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { AppConfig } from '../../config.js';
import type { SigningMaterial } from '../../lib/issuer/types.js';
import { breakerVerdict, KeyedBreaker, type BreakerChange, type BreakerOptions, type CallEvidence } from '../../lib/sefaz/breaker.js';
import type { InfrastructureReason } from '../../lib/sefaz/results.js';
import { AgentPool, type Trust } from './agents.js';
import { Bulkhead, type QueueRefusal } from '../shared/bulkhead.js';
import { postSoap, type PostOutcome } from './http-client.js';

/**
 * The way to an authority over mutual TLS, shared by every authority client of the sefaz node (NF-e
 * SOAP today, the NFS-e REST client next): keep-alive agents per client certificate, a bulkhead per
 * certificate (its connections, its FIFO queue), connect/read timeouts measured on the socket, and
 * the breaker per authority key fed only by what happened on the wire (issue 20, defect 2).
 *
 * A client calls `exchange` with its message and an `interpret` that turns the raw outcome into its
 * typed result plus the evidence the breaker needs. Local refusals (queue, circuit open) never reach
 * `interpret`: `refused` builds their result, and they never count toward any breaker.
 */
export interface TransportOptions {
  connectTimeoutMs: number;
  readTimeoutMs: number;
  expectContinue: boolean;
  /** Connections per client certificate, and calls of one certificate in flight at once. */
  maxSockets: number;
  /** Calls of one certificate waiting for a connection; beyond that the call is refused at once. */
  maxQueued: number;
  /** Longest wait for a connection of the certificate. */
  queueTimeoutMs: number;
  breaker: BreakerOptions;
  now(): number;
}

/** A circuit opened or recovered (see lib/sefaz/breaker.ts BreakerChange). */
export type CircuitListener = (key: string, change: Exclude<BreakerChange, null>) => void;

/**
 * One exchange that went out, with its round trip in ms (socket wait excluded) and what it said
 * about the authority; `evidence` is null when interpreting the answer threw (our bug).
 */
export type ExchangeListener = (key: string, ms: number, evidence: CallEvidence | null) => void;

/** The node's transport settings from its configuration (SEFAZ_*). */
export function transportOptions(config: AppConfig, now: () => number): TransportOptions {
  const s = config.sefaz;
  return {
    connectTimeoutMs: s.connectTimeoutMs, readTimeoutMs: s.readTimeoutMs, expectContinue: s.expectContinue,
    maxSockets: s.maxSockets, maxQueued: s.maxQueued, queueTimeoutMs: s.queueTimeoutMs,
    breaker: { threshold: s.breakerThreshold, failureRatio: 0.5, minRequests: 10, windowMs: 60_000, cooldownMs: s.breakerCooldownMs },
    now,
  };
}

export interface Exchange<R> {
  /** Breaker key: the authority this call goes to (e.g. `SP|55|2`). */
  key: string;
  identity: SigningMaterial;
  trust: Trust;
  url: string;
  /** POST unless said (Sefin Nacional's reads are GETs). */
  method?: 'POST' | 'GET' | 'HEAD';
  body: string;
  contentType: string;
  /**
   * A probe (the availability monitor's status call, the recovery probe) goes out whatever the
   * circuit says: it is how an open circuit learns the authority is back.
   */
  probe?: boolean;
  interpret(out: PostOutcome): { result: R; evidence: CallEvidence };
  /** The result of a call refused here, before anything was sent. */
  refused(reason: Extract<InfrastructureReason, 'circuit-open' | 'queue-full' | 'queue-timeout'>, detail: string): R;
}

export class AuthorityTransport {
  readonly breaker: KeyedBreaker;
  private readonly agents: AgentPool;
  private readonly bulkhead: Bulkhead;
  private readonly listeners: CircuitListener[] = [];
  private readonly exchangeListeners: ExchangeListener[] = [];

  constructor(private readonly opts: TransportOptions) {
    this.breaker = new KeyedBreaker(opts.breaker);
    this.agents = new AgentPool(opts.maxSockets);
    this.bulkhead = new Bulkhead({ concurrency: opts.maxSockets, maxQueued: opts.maxQueued, queueTimeoutMs: opts.queueTimeoutMs });
  }

  /** Every client of the transport hears about its circuits (the NF-e client's recovery probes, for one). */
  onCircuitChange(listener: CircuitListener): void {
    this.listeners.push(listener);
  }

  /** Hears every exchange that reached the wire (the node's metrics). */
  onExchange(listener: ExchangeListener): void {
    this.exchangeListeners.push(listener);
  }

  async exchange<R>(x: Exchange<R>): Promise<R> {
    const agent = this.agents.get(x.identity, x.trust);
    return this.send(AgentPool.keyOf(x.identity, x.trust), agent, x);
  }

  /** `exchange` over any pooled connection of the trust store (status checks without an issuer); null when there is none. */
  async exchangePooled<R>(trustId: string, x: Omit<Exchange<R>, 'identity'>): Promise<R | null> {
    const pooled = this.agents.any(trustId);
    return pooled ? this.send(pooled.key, pooled.agent, x) : null;
  }

  /** Calls of one certificate running and waiting (diagnostics, tests). */
  load(identity: SigningMaterial, trust: Trust): { active: number; waiting: number } {
    return this.bulkhead.load(AgentPool.keyOf(identity, trust));
  }

  close(): void {
    this.agents.destroyAll();
  }

  private send<R>(lane: string, agent: Agent, x: Omit<Exchange<R>, 'identity'>): Promise<R> {
    return this.bulkhead.run(lane, async () => {
      // Asked once a connection is ours: a call that waited in its issuer's queue holds no trial slot meanwhile.
      const trial = !x.probe;
      if (trial && !this.breaker.allow(x.key, this.opts.now())) return x.refused('circuit-open', `circuit open for ${x.key}`);
      let verdict: ReturnType<typeof breakerVerdict> = 'neutral';
      let evidence: CallEvidence | null = null;
      const start = performance.now();
      try {
        const out = await postSoap({
          url: x.url, agent, method: x.method, body: x.body, contentType: x.contentType, connectTimeoutMs: this.opts.connectTimeoutMs,
          readTimeoutMs: this.opts.readTimeoutMs, expectContinue: this.opts.expectContinue, socketWaitMs: this.opts.queueTimeoutMs,
        });
        const interpreted = x.interpret(out);
        evidence = interpreted.evidence;
        verdict = breakerVerdict(evidence);
        return interpreted.result;
      } finally {
        // Also when interpret throws (our bug): the half-open trial slot must never stay taken.
        const change = this.breaker.record(x.key, verdict, this.opts.now(), { trial });
        if (change) for (const listener of this.listeners) listener(x.key, change);
        const ms = performance.now() - start;
        for (const listener of this.exchangeListeners) listener(x.key, ms, evidence);
      }
    }, (r) => x.refused(r.reason, refusalDetail(r)));
  }
}

function refusalDetail(r: QueueRefusal): string {
  return r.reason === 'queue-full'
    ? `${r.waiting} calls of this client certificate already waiting for a connection`
    : `no connection of this client certificate free within ${r.timeoutMs} ms`;
}
