/**
 * Circuit breaker per authority key (UF + model + environment). Moleculer's breaker works per action
 * endpoint, which would let one UF's outage block every other UF, so this small state machine keeps
 * one circuit per key. Pure: time comes in as an argument.
 *
 * closed → open after `threshold` consecutive infrastructure failures, or when at least `minRequests`
 * calls in the window failed at a ratio ≥ `failureRatio`; open → half-open after `cooldownMs`
 * (one trial call allowed); half-open → closed on success, open again on failure.
 */
export interface BreakerOptions {
  threshold: number;
  failureRatio: number;
  minRequests: number;
  windowMs: number;
  cooldownMs: number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

interface Circuit {
  state: CircuitState;
  consecutive: number;
  window: { at: number; ok: boolean }[];
  openedAt: number;
  trialInFlight: boolean;
}

export const DEFAULT_BREAKER: BreakerOptions = { threshold: 5, failureRatio: 0.5, minRequests: 10, windowMs: 60_000, cooldownMs: 30_000 };

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

  state(key: string, now: number): CircuitState {
    const c = this.circuit(key);
    if (c.state === 'open' && now - c.openedAt >= this.opts.cooldownMs) c.state = 'half-open';
    return c.state;
  }

  /** Whether a call may go out now; in half-open only one trial at a time. */
  allow(key: string, now: number): boolean {
    const state = this.state(key, now);
    if (state === 'closed') return true;
    if (state === 'open') return false;
    const c = this.circuit(key);
    if (c.trialInFlight) return false;
    c.trialInFlight = true;
    return true;
  }

  /** Any answer from the authority (even a rejection) proves it is reachable. */
  success(key: string, now: number): void {
    const c = this.circuit(key);
    c.state = 'closed';
    c.consecutive = 0;
    c.trialInFlight = false;
    this.record(c, now, true);
  }

  /** An outcome that says nothing about the authority (e.g. our client certificate refused): frees the trial slot. */
  neutral(key: string): void {
    this.circuit(key).trialInFlight = false;
  }

  failure(key: string, now: number): void {
    const c = this.circuit(key);
    c.trialInFlight = false;
    this.record(c, now, false);
    if (c.state === 'half-open') return this.open(c, now);
    c.consecutive++;
    const failures = c.window.filter((w) => !w.ok).length;
    if (c.consecutive >= this.opts.threshold
      || (c.window.length >= this.opts.minRequests && failures / c.window.length >= this.opts.failureRatio)) {
      this.open(c, now);
    }
  }

  private open(c: Circuit, now: number): void {
    c.state = 'open';
    c.openedAt = now;
    c.window = [];
    c.consecutive = 0;
  }

  private record(c: Circuit, now: number, ok: boolean): void {
    c.window.push({ at: now, ok });
    while (c.window.length && now - c.window[0]!.at > this.opts.windowMs) c.window.shift();
  }
}
