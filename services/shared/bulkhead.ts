/**
 * One lane per tenant resource (an issuer's certificate in the authority transport, an issuer's
 * numbering in emission): at most `concurrency` calls of a lane run at once, the rest wait in FIFO
 * order (issue 20, defect 2). A burst of one issuer waits for its own slots instead of failing, and
 * never takes another issuer's: lanes share nothing. The wait is bounded twice so a caller always
 * gets an answer before its own timeout: at most `maxQueued` waiting (`queue-full`) and at most
 * `queueTimeoutMs` each (`queue-timeout`). Both refusals happen before the work starts.
 *
 * Grouped calls (`runGrouped`, issue 18): a waiting call that gets a slot takes along the calls of
 * its group waiting behind it (at most `maxGroup` in all), and one run serves them all. A series'
 * notes (or a série's DPS) that queued while its numbering was busy are numbered in one
 * transaction (services/emission/group-claim.ts): the slot, its database connection and the commit
 * are shared instead of waited for one by one.
 *
 * With `oneRunPerGroup`, a group has at most one run at a time in a lane: a call whose group is
 * running waits for that run even when another slot is free, and a slot goes to the first waiter
 * whose group is not running. The numbering wants this: two transactions of one series on one node
 * would only queue on the series' row lock, each holding a connection, and number fewer notes per
 * commit than one run taking the waiters along (issue 18); the lane's other slots stay for the
 * issuer's other series.
 */
export interface BulkheadOptions {
  concurrency: number;
  maxQueued: number;
  queueTimeoutMs: number;
  /** Calls one grouped run may serve (default 1: none are grouped). */
  maxGroup?: number;
  /** At most one run of a group at a time per lane (default false). */
  oneRunPerGroup?: boolean;
}

export type QueueRefusal = { reason: 'queue-full' | 'queue-timeout'; waiting: number; timeoutMs: number };

/** How a waiting call leaves the queue: it leads a run (with the calls it took along), rides another's run, or times out. */
type Turn = { kind: 'lead'; riders: Waiter[] } | { kind: 'ride'; result: Promise<PromiseSettledResult<unknown>> } | { kind: 'timeout' };

interface Waiter {
  turn(t: Turn): void;
  timer?: NodeJS.Timeout;
  /** A grouped call: its group and item. */
  group?: string;
  item?: unknown;
}

interface Lane {
  active: number;
  waiting: Waiter[];
  /** Groups with a run in this lane (`oneRunPerGroup` only). */
  running: Set<string>;
}

export class Bulkhead {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly opts: BulkheadOptions) {}

  /** Runs `work` in `lane` when a slot is free; `refused` answers instead when the wait is refused. */
  async run<T>(lane: string, work: () => Promise<T>, refused: (r: QueueRefusal) => T): Promise<T> {
    const l = this.lane(lane);
    const turn = await this.admit(l, lane, {});
    if (turn.kind === 'timeout') return refused(this.refusal('queue-timeout', l));
    if (turn.kind === 'refused') return refused(turn.refusal);
    try {
      return await work();
    } finally {
      this.release(lane, l, undefined);
    }
  }

  /**
   * As `run`, for `item` of `group`: `work` runs once for the items of the group's calls that
   * waited together and answers one settled result per item, in order. A throw fails them all.
   */
  async runGrouped<I, T>(lane: string, group: string, item: I, work: (items: I[]) => Promise<Array<PromiseSettledResult<T>>>, refused: (r: QueueRefusal) => T): Promise<T> {
    const l = this.lane(lane);
    const turn = await this.admit(l, lane, { group, item });
    if (turn.kind === 'timeout') return refused(this.refusal('queue-timeout', l));
    if (turn.kind === 'refused') return refused(turn.refusal);
    if (turn.kind === 'ride') return settledValue(await turn.result) as T;
    const riders = turn.riders;
    const run = (async () => {
      try {
        const results = await work([item, ...riders.map((r) => r.item as I)]);
        if (results.length !== riders.length + 1) throw new Error(`Bulkhead: ${results.length} results for ${riders.length + 1} grouped calls`);
        return results;
      } finally {
        this.release(lane, l, group);
      }
    })();
    riders.forEach((rider, i) => rider.turn({ kind: 'ride', result: run.then((results) => results[i + 1]!, (reason) => ({ status: 'rejected', reason })) }));
    return settledValue((await run)[0]!);
  }

  /** Calls running and waiting in a lane (tests, diagnostics). */
  load(lane: string): { active: number; waiting: number } {
    const l = this.lanes.get(lane);
    return { active: l?.active ?? 0, waiting: l?.waiting.length ?? 0 };
  }

  /** A slot at once, or a place in the queue until a turn comes (refused when the queue is full). */
  private async admit(l: Lane, lane: string, call: Pick<Waiter, 'group' | 'item'>): Promise<Turn | { kind: 'refused'; refusal: QueueRefusal }> {
    if (l.active < this.opts.concurrency && this.mayRun(l, call.group)) {
      this.start(l, call.group);
      return { kind: 'lead', riders: [] };
    }
    if (l.waiting.length >= this.opts.maxQueued) return { kind: 'refused', refusal: this.refusal('queue-full', l) };
    const turn = await new Promise<Turn>((resolve) => {
      const waiter: Waiter = {
        ...call,
        turn: (t) => { clearTimeout(waiter.timer); resolve(t); },
      };
      waiter.timer = setTimeout(() => {
        l.waiting.splice(l.waiting.indexOf(waiter), 1);
        resolve({ kind: 'timeout' });
      }, this.opts.queueTimeoutMs);
      l.waiting.push(waiter);
    });
    if (turn.kind === 'timeout') this.forget(lane, l);
    return turn;
  }

  /**
   * The run ends; its slot goes to the first waiter that may run (in arrival order: with
   * `oneRunPerGroup`, the first whose group is not running), with the waiters of its group behind it.
   */
  private release(lane: string, l: Lane, group: string | undefined): void {
    l.active--;
    if (group !== undefined) l.running.delete(group);
    while (l.active < this.opts.concurrency) {
      const i = l.waiting.findIndex((w) => this.mayRun(l, w.group));
      if (i < 0) break;
      const [next] = l.waiting.splice(i, 1) as [Waiter];
      const riders: Waiter[] = [];
      const maxGroup = this.opts.maxGroup ?? 1;
      if (next.group !== undefined) {
        for (let j = i; j < l.waiting.length && riders.length < maxGroup - 1;) {
          if (l.waiting[j]!.group === next.group) riders.push(...l.waiting.splice(j, 1));
          else j++;
        }
      }
      this.start(l, next.group);
      next.turn({ kind: 'lead', riders });
    }
    this.forget(lane, l);
  }

  private mayRun(l: Lane, group: string | undefined): boolean {
    return group === undefined || !this.opts.oneRunPerGroup || !l.running.has(group);
  }

  private start(l: Lane, group: string | undefined): void {
    l.active++;
    if (group !== undefined && this.opts.oneRunPerGroup) l.running.add(group);
  }

  private refusal(reason: QueueRefusal['reason'], l: Lane): QueueRefusal {
    return { reason, waiting: l.waiting.length, timeoutMs: this.opts.queueTimeoutMs };
  }

  private lane(key: string): Lane {
    let l = this.lanes.get(key);
    if (!l) {
      l = { active: 0, waiting: [], running: new Set() };
      this.lanes.set(key, l);
    }
    return l;
  }

  private forget(key: string, l: Lane): void {
    if (l.active === 0 && l.waiting.length === 0) this.lanes.delete(key);
  }
}

/** A settled result's value, or its reason thrown. */
export function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'fulfilled') return result.value;
  throw result.reason;
}

/**
 * `fn` of each item, one after another, as one settled result per item in order: a grouped run's
 * fallback (runGrouped's `work`), where one item's failure must not fail the others.
 */
export async function settleEach<I, R>(items: readonly I[], fn: (item: I) => Promise<R>): Promise<Array<PromiseSettledResult<R>>> {
  const settled: Array<PromiseSettledResult<R>> = [];
  for (const item of items) {
    try {
      settled.push({ status: 'fulfilled', value: await fn(item) });
    } catch (reason) {
      settled.push({ status: 'rejected', reason });
    }
  }
  return settled;
}
