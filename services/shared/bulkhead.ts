/**
 * One lane per tenant resource (an issuer's certificate in the authority transport, an issuer's
 * numbering in emission): at most `concurrency` calls of a lane run at once, the rest wait in FIFO
 * order (issue 20, defect 2). A burst of one issuer waits for its own slots instead of failing, and
 * never takes another issuer's: lanes share nothing. The wait is bounded twice so a caller always
 * gets an answer before its own timeout: at most `maxQueued` waiting (`queue-full`) and at most
 * `queueTimeoutMs` each (`queue-timeout`). Both refusals happen before the work starts.
 */
export interface BulkheadOptions {
  concurrency: number;
  maxQueued: number;
  queueTimeoutMs: number;
}

export type QueueRefusal = { reason: 'queue-full' | 'queue-timeout'; waiting: number; timeoutMs: number };

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

interface Lane {
  active: number;
  waiting: Waiter[];
}

export class Bulkhead {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly opts: BulkheadOptions) {}

  /** Runs `work` in `lane` when a slot is free; `refused` answers instead when the wait is refused. */
  async run<T>(lane: string, work: () => Promise<T>, refused: (r: QueueRefusal) => T): Promise<T> {
    const l = this.lane(lane);
    if (l.active >= this.opts.concurrency) {
      if (l.waiting.length >= this.opts.maxQueued) {
        return refused({ reason: 'queue-full', waiting: l.waiting.length, timeoutMs: this.opts.queueTimeoutMs });
      }
      const got = await new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          start: () => { clearTimeout(waiter.timer); resolve(true); },
          timer: setTimeout(() => {
            l.waiting.splice(l.waiting.indexOf(waiter), 1);
            resolve(false);
          }, this.opts.queueTimeoutMs),
        };
        l.waiting.push(waiter);
      });
      if (!got) {
        this.forget(lane, l);
        return refused({ reason: 'queue-timeout', waiting: l.waiting.length, timeoutMs: this.opts.queueTimeoutMs });
      }
    } else {
      l.active++;
    }
    try {
      return await work();
    } finally {
      const next = l.waiting.shift();
      // The slot passes straight to the next waiter: nobody can overtake the queue.
      if (next) next.start();
      else { l.active--; this.forget(lane, l); }
    }
  }

  /** Calls running and waiting in a lane (tests, diagnostics). */
  load(lane: string): { active: number; waiting: number } {
    const l = this.lanes.get(lane);
    return { active: l?.active ?? 0, waiting: l?.waiting.length ?? 0 };
  }

  private lane(key: string): Lane {
    let l = this.lanes.get(key);
    if (!l) {
      l = { active: 0, waiting: [] };
      this.lanes.set(key, l);
    }
    return l;
  }

  private forget(key: string, l: Lane): void {
    if (l.active === 0 && l.waiting.length === 0) this.lanes.delete(key);
  }
}
