/**
 * Who gets the next thread of a worker pool: jobs someone is waiting on go first (`first`: opening
 * a stored A1 to sign a note), then the others (`turn`) one owner at a time in turn. A partner
 * sending a hundred costly jobs (certificate uploads of 100,000 iterations, DANFEs of 990 items)
 * delays another partner's next job by at most one of them, not by the hundred.
 * Used by services/issuer/pkcs12-pool.ts and turn-pool.ts (the emission's PDFs and large drafts).
 */
export type Lane = { kind: 'first' } | { kind: 'turn'; owner: string };

/** How many jobs may wait for a thread: in all, and of one owner's turn. */
export interface WaitBounds {
  waiting: number;
  waitingPerOwner: number;
}

export class FairSlots {
  private running = 0;
  private readonly firsts: (() => void)[] = [];
  /** Waiting jobs per owner; Map order is the turn (an owner served goes to the back). */
  private readonly turns = new Map<string, (() => void)[]>();

  constructor(private readonly threads: number, private readonly bounds: WaitBounds) {}

  /** Whether `lane` must be refused now (a 503) instead of waiting ever longer. */
  full(lane: Lane): boolean {
    return this.waiting() >= this.bounds.waiting || (lane.kind === 'turn' && this.waiting(lane.owner) >= this.bounds.waitingPerOwner);
  }

  /** Jobs waiting for a thread, all of them or one owner's. */
  waiting(owner?: string): number {
    if (owner !== undefined) return this.turns.get(owner)?.length ?? 0;
    let n = this.firsts.length;
    for (const q of this.turns.values()) n += q.length;
    return n;
  }

  async run<T>(lane: Lane, job: () => Promise<T>): Promise<T> {
    if (this.running < this.threads) this.running++;
    else await new Promise<void>((start) => this.enqueue(lane, start));
    try {
      return await job();
    } finally {
      // The thread passes straight to the next job, or is freed.
      const next = this.next();
      if (next) next();
      else this.running--;
    }
  }

  private enqueue(lane: Lane, start: () => void): void {
    if (lane.kind === 'first') return void this.firsts.push(start);
    const queue = this.turns.get(lane.owner);
    if (queue) queue.push(start);
    else this.turns.set(lane.owner, [start]);
  }

  private next(): (() => void) | undefined {
    const first = this.firsts.shift();
    if (first) return first;
    const turn = this.turns.entries().next();
    if (turn.done) return undefined;
    const [owner, queue] = turn.value;
    const start = queue.shift()!;
    this.turns.delete(owner);
    if (queue.length) this.turns.set(owner, queue);
    return start;
  }
}
