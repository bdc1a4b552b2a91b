import type { BreakerChange } from '../../lib/sefaz/breaker.js';
import type { StatusResult } from '../../lib/sefaz/results.js';
import { authorityKey, type Target } from './target.js';

/**
 * What the sefaz node learns about each authority and tells the cluster (issue 20, defects 3 and
 * 6): a circuit that opens (the availability monitor checks that UF at once), an authority that
 * answers again (notes that failed before sending are retransmitted now, not at the 2-minute
 * reconciliation), and 107/108/109 read in anyone's answer (evidence for the monitor).
 *
 * An open circuit does not wait for traffic to find out the authority is back: a recovery probe
 * (a status call that bypasses the breaker) goes out every cooldown until one is answered 107 and
 * closes it. It uses the certificate of the last issuer that called that authority, or the
 * platform's monitoring certificate when only the monitor did.
 */
export type AuthorityKey = string;

export interface AuthorityRef {
  uf: string;
  model: Target['model'];
  ambiente: Target['ambiente'];
}

export interface AuthorityObservation extends AuthorityRef {
  cStat: number;
  xMotivo: string;
  /** ISO 8601 (UTC): when the answer was read. */
  observedAt: string;
}

export interface AuthorityEvents {
  circuitOpened(ref: AuthorityRef): void;
  recovered(ref: AuthorityRef): void;
  observed(o: AuthorityObservation): void;
}

/** Who is calling: an issuer, the availability monitor (its own certificate, never short-circuited), or a recovery probe. */
export interface Caller {
  issuerId?: string;
  monitor?: boolean;
  probe?: boolean;
}

export interface RecoveryProbeDeps {
  delayMs: number;
  isOpen(key: AuthorityKey): boolean;
  probe(target: Target, caller: Caller): Promise<StatusResult>;
  events?: AuthorityEvents;
  now(): Date;
}

/** The same observation of one authority is reported at most this often (an outage answers 108 to every call). */
const OBSERVATION_EVERY_MS = 5_000;

export class RecoveryProbes {
  private readonly targets = new Map<AuthorityKey, { target: Target; caller: Caller }>();
  private readonly timers = new Map<AuthorityKey, NodeJS.Timeout>();
  private readonly reported = new Map<string, number>();
  private stopped = false;

  constructor(private readonly d: RecoveryProbeDeps) {}

  /** Notes where (and as whom) an authority was last called, for its probe; returns its breaker key. */
  remember(t: Target, caller: Caller): AuthorityKey {
    const key = authorityKey(t);
    if (!caller.probe) {
      const known = this.targets.get(key);
      // An issuer's certificate is preferred: the monitor's may be absent where the issuer's works.
      if (!known || caller.issuerId || !known.caller.issuerId) {
        this.targets.set(key, {
          target: { uf: t.uf, model: t.model, ambiente: t.ambiente, ...(t.endpointUrl ? { endpointUrl: t.endpointUrl } : {}), ...(t.sandbox ? { sandbox: true } : {}) },
          caller: caller.issuerId ? { issuerId: caller.issuerId } : { monitor: true },
        });
      }
    }
    return key;
  }

  changed(key: AuthorityKey, change: Exclude<BreakerChange, null>): void {
    const known = this.targets.get(key);
    if (!known) return;
    const ref = { uf: known.target.uf, model: known.target.model, ambiente: known.target.ambiente };
    if (change === 'opened') {
      this.d.events?.circuitOpened(ref);
      this.schedule(key);
    } else {
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);
      this.d.events?.recovered(ref);
    }
  }

  observed(key: AuthorityKey, t: Target, status: { cStat: number; xMotivo: string }): void {
    const now = this.d.now();
    const id = `${key}|${status.cStat}`;
    if (now.getTime() - (this.reported.get(id) ?? -Infinity) < OBSERVATION_EVERY_MS) return;
    this.reported.set(id, now.getTime());
    this.d.events?.observed({ uf: t.uf, model: t.model, ambiente: t.ambiente, ...status, observedAt: now.toISOString() });
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(key: AuthorityKey): void {
    if (this.stopped || this.timers.has(key)) return;
    const timer = setTimeout(() => {
      const known = this.targets.get(key);
      if (!known || !this.d.isOpen(key)) { this.timers.delete(key); return; }
      // A 107 closes the circuit (its success is recorded like any call's) and `changed` reports it.
      this.d.probe(known.target, { ...known.caller, probe: true })
        .catch(() => undefined)
        .finally(() => {
          this.timers.delete(key);
          if (this.d.isOpen(key)) this.schedule(key);
        });
    }, this.d.delayMs);
    timer.unref?.();
    this.timers.set(key, timer);
  }
}
