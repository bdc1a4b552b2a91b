import { randomUUID } from 'node:crypto';

/**
 * Fault injection of the simulator (issue 6, "Fault injection"): set by configuration at start and
 * through the admin endpoint. A fault may be limited to one UF (sigla) and/or one service, and to a
 * number of uses (`times`) after which it clears itself.
 *
 * - down: status answers 108 (or `cStat` 109); every other service answers HTTP 503.
 * - slow: waits `delayMs` before processing.
 * - timeout-before-processing: never sends "100 Continue" nor answers; nothing is processed.
 * - drop-after-processing: processes and commits, then drops the connection without an answer.
 * - tls-flaky: aborts every `every`-th new TLS connection during the handshake (UF/service blind:
 *   the handshake happens before the request is known).
 */
export type FaultMode = 'down' | 'slow' | 'timeout-before-processing' | 'drop-after-processing' | 'tls-flaky';
export const FAULT_MODES: readonly FaultMode[] = ['down', 'slow', 'timeout-before-processing', 'drop-after-processing', 'tls-flaky'];

export interface FaultSpec {
  mode: FaultMode;
  uf?: string;
  service?: string;
  delayMs?: number;
  cStat?: 108 | 109;
  every?: number;
  times?: number;
}

export interface Fault extends FaultSpec { id: string }

export function parseFaultSpec(input: unknown): FaultSpec {
  const o = input as Record<string, unknown>;
  if (!o || typeof o !== 'object') throw new Error('fault must be an object');
  if (!FAULT_MODES.includes(o.mode as FaultMode)) throw new Error(`mode must be one of ${FAULT_MODES.join(', ')}`);
  const spec: FaultSpec = { mode: o.mode as FaultMode };
  if (o.uf !== undefined) { if (typeof o.uf !== 'string' || !/^[A-Z]{2,5}$/.test(o.uf)) throw new Error('uf must be a UF sigla'); spec.uf = o.uf; }
  if (o.service !== undefined) { if (typeof o.service !== 'string') throw new Error('service must be a string'); spec.service = o.service; }
  for (const k of ['delayMs', 'every', 'times'] as const) {
    if (o[k] !== undefined) { if (!Number.isInteger(o[k]) || (o[k] as number) < 1) throw new Error(`${k} must be a positive integer`); spec[k] = o[k] as number; }
  }
  if (o.cStat !== undefined) { if (o.cStat !== 108 && o.cStat !== 109) throw new Error('cStat must be 108 or 109'); spec.cStat = o.cStat; }
  return spec;
}

export class FaultBoard {
  private faults: Fault[] = [];
  private handshakes = 0;

  add(spec: FaultSpec): Fault {
    const fault = { ...spec, id: randomUUID() };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  clear(filter: { id?: string; uf?: string } = {}): number {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => (filter.id ? f.id !== filter.id : filter.uf ? f.uf !== filter.uf : false));
    return before - this.faults.length;
  }

  /** Whether any fault is set (else no request needs to know its UF for them). */
  any(): boolean {
    return this.faults.length > 0;
  }

  /** The active fault of `mode` for this request, consuming one use. */
  take(mode: FaultMode, uf: string | null, service: string | null): Fault | null {
    const f = this.faults.find((x) => x.mode === mode && (!x.uf || x.uf === uf) && (!x.service || x.service === service));
    if (!f) return null;
    if (f.times !== undefined && --f.times <= 0) this.faults = this.faults.filter((x) => x !== f);
    return f;
  }

  /** For tls-flaky: whether this new connection should be aborted. */
  abortHandshake(): boolean {
    const f = this.faults.find((x) => x.mode === 'tls-flaky');
    if (!f) return false;
    this.handshakes++;
    if (this.handshakes % (f.every ?? 2) !== 0) return false;
    if (f.times !== undefined && --f.times <= 0) this.faults = this.faults.filter((x) => x !== f);
    return true;
  }
}
