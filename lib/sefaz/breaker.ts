/**
 * Circuit breaker per authority key (UF + model + environment). Moleculer's breaker works per action
 * endpoint, which would let one UF's outage block every other UF, so this small state machine keeps
 * one circuit per key. Pure: time comes in as an argument.
 *
 * closed → open after `threshold` consecutive failures on the wire, or when at least `minRequests`
 * calls in the window failed at a ratio ≥ `failureRatio`; open → half-open after `cooldownMs`
 * (one trial call allowed); half-open → closed on success, open again on failure.
 *
 * Only the wire counts (issue 20, defect 2): a call that waited in its issuer's queue, was
 * short-circuited by this breaker, or was refused because of one issuer's own certificate says
 * nothing about the authority, so `breakerVerdict` makes it `neutral`. A probe (the availability
 * monitor's status call, the recovery probe) does not ask `allow`: it is how an open circuit learns
 * that the authority is back, and its success closes the circuit like any other.
 */
export interface BreakerOptions {
  threshold: number;
  failureRatio: number;
  minRequests: number;
  windowMs: number;
  cooldownMs: number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** What one recorded outcome did to its circuit, for whoever reacts to it (monitor, recovery). */
export type BreakerChange =
  /** The circuit opened (from closed, or again from half-open). */
  | 'opened'
  /** A success after failures: the circuit closed from open/half-open, or failures in a row ended. */
  | 'recovered'
  | null;

interface Circuit {
  state: CircuitState;
  consecutive: number;
  window: { at: number; ok: boolean }[];
  openedAt: number;
  trialInFlight: boolean;
}

export const DEFAULT_BREAKER: BreakerOptions = { threshold: 5, failureRatio: 0.5, minRequests: 10, windowMs: 60_000, cooldownMs: 30_000 };

/** Where a call that got no usable answer broke down. */
export type FailureOrigin =
  /** On the network path to the authority: connect refused or timed out after the socket started, TLS broken, no answer after sending, reset. */
  | 'wire'
  /** Here: waiting for one of the issuer's connections, a circuit-open short-circuit, no client certificate. */
  | 'local'
  /** The authority refused this issuer's certificate: about the issuer, not the authority. */
  | 'client-certificate';

/** What a call came to, as the breaker needs to know it. */
export type CallEvidence =
  /** The authority answered with a message (any cStat, a rejection included). */
  | { kind: 'answer'; cStat?: number }
  /** An HTTP status with no message in it. */
  | { kind: 'http-status'; status: number }
  /** 2xx whose body is not the expected message. */
  | { kind: 'malformed' }
  | { kind: 'failure'; origin: FailureOrigin };

export type Verdict = 'success' | 'failure' | 'neutral';

/** 108/109: the authority itself says its service is stopped (the monitor's business, not the breaker's). */
const SERVICE_STOPPED = new Set([108, 109]);

export function breakerVerdict(e: CallEvidence): Verdict {
  switch (e.kind) {
    // A 108/109 is a fast answer: nothing to save by short-circuiting, and it proves the way there works.
    case 'answer': return e.cStat !== undefined && SERVICE_STOPPED.has(e.cStat) ? 'neutral' : 'success';
    // 5xx: the authority's front end is failing. 4xx is an answer about this request (URL, our message, our certificate).
    case 'http-status': return e.status >= 500 ? 'failure' : 'neutral';
    case 'malformed': return 'failure';
    case 'failure': return e.origin === 'wire' ? 'failure' : 'neutral';
  }
}

export class KeyedBreaker {
  private readonly circuits = new Map<string, Circuit>();
  constructor(private readonly opts: BreakerOptions = DEFAULT_BREAKER) {}

  private circuit(key: string): Circuit {
    let c = this.circuits.get(key);
    if (!c) {
      c = { state: 'closed', consecutive: 0, window: [], openedAt: 0, trialInFlight: false };
      this.circuits.set(key, c);
    }
    return c;
  }

  /** Every key a call has been asked about (the metrics list their circuits). */
  keys(): string[] {
    return [...this.circuits.keys()];
  }

  state(key: string, now: number): CircuitState {
    const c = this.circuit(key);
    if (c.state === 'open' && now - c.openedAt >= this.opts.cooldownMs) c.state = 'half-open';
    return c.state;
  }

  /** Whether a call may go out now; in half-open only one trial at a time. Probes do not ask. */
  allow(key: string, now: number): boolean {
    const state = this.state(key, now);
    if (state === 'closed') return true;
    if (state === 'open') return false;
    const c = this.circuit(key);
    if (c.trialInFlight) return false;
    c.trialInFlight = true;
    return true;
  }

  /** Records one call's verdict; `trial` frees the half-open slot that `allow` gave (probes hold none). */
  record(key: string, verdict: Verdict, now: number, opts: { trial?: boolean } = {}): BreakerChange {
    if (verdict === 'success') return this.success(key, now);
    if (verdict === 'failure') return this.failure(key, now);
    if (opts.trial !== false) this.neutral(key);
    return null;
  }

  /** Any answer from the authority (even a rejection) proves it is reachable. */
  success(key: string, now: number): BreakerChange {
    const c = this.circuit(key);
    const recovered = c.state !== 'closed' || c.consecutive > 0;
    c.state = 'closed';
    c.consecutive = 0;
    c.trialInFlight = false;
    this.record1(c, now, true);
    return recovered ? 'recovered' : null;
  }

  /** An outcome that says nothing about the authority (e.g. our client certificate refused): frees the trial slot. */
  neutral(key: string): void {
    this.circuit(key).trialInFlight = false;
  }

  /** 'opened' only when a closed circuit opens: a failed trial re-opens silently (it was out already). */
  failure(key: string, now: number): BreakerChange {
    const state = this.state(key, now);
    const c = this.circuit(key);
    c.trialInFlight = false;
    this.record1(c, now, false);
    if (state === 'half-open') {
      this.open(c, now); // the trial failed: another cooldown
      return null;
    }
    if (state === 'open') return null; // a late answer or a probe: already out
    c.consecutive++;
    const failures = c.window.filter((w) => !w.ok).length;
    if (c.consecutive >= this.opts.threshold
      || (c.window.length >= this.opts.minRequests && failures / c.window.length >= this.opts.failureRatio)) {
      this.open(c, now);
      return 'opened';
    }
    return null;
  }

  private open(c: Circuit, now: number): void {
    c.state = 'open';
    c.openedAt = now;
    c.window = [];
    c.consecutive = 0;
  }

  private record1(c: Circuit, now: number, ok: boolean): void {
    c.window.push({ at: now, ok });
    while (c.window.length && now - c.window[0]!.at > this.opts.windowMs) c.window.shift();
  }
}
