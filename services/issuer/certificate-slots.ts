/**
 * Who gets the next certificate thread (services/issuer/pkcs12-pool.ts). Opening a stored A1 for
 * signing goes first: an emission waits on it. Upload checks come next, one partner at a time in
 * turn, so a partner sending a hundred costly files (100,000 iterations is within the bound, about
 * 0.6 s of a thread each) delays another partner's upload by at most one file, not by the hundred,
 * and never delays anyone's signing.
 */
export type Lane = { kind: 'read' } | { kind: 'accept'; owner: string };

export class CertificateSlots {
  private running = 0;
  private readonly reads: (() => void)[] = [];
  /** Waiting uploads per partner; Map order is the turn (a partner served goes to the back). */
  private readonly uploads = new Map<string, (() => void)[]>();

  constructor(private readonly threads: number) {}

  /** Jobs waiting for a thread, all of them or one partner's uploads. */
  waiting(owner?: string): number {
    if (owner !== undefined) return this.uploads.get(owner)?.length ?? 0;
    let n = this.reads.length;
    for (const q of this.uploads.values()) n += q.length;
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
    if (lane.kind === 'read') return void this.reads.push(start);
    const queue = this.uploads.get(lane.owner);
    if (queue) queue.push(start);
    else this.uploads.set(lane.owner, [start]);
  }

  private next(): (() => void) | undefined {
    const read = this.reads.shift();
    if (read) return read;
    const turn = this.uploads.entries().next();
    if (turn.done) return undefined;
    const [owner, queue] = turn.value;
    const start = queue.shift()!;
    this.uploads.delete(owner);
    if (queue.length) this.uploads.set(owner, queue);
    return start;
  }
}
