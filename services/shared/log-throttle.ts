/**
 * Lets a recurring failure be logged at most once per interval per key, with how many times it
 * happened in between. A loop that fails on every turn (a missing Streams group, a dispatcher that
 * is not running) would otherwise write a line per turn: issue 20 saw logs grow 73 MB in 10 minutes.
 * Elapsed time is measured on the monotonic clock: this is about log volume, not business time.
 */
export class LogThrottle {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(private readonly intervalMs: number, private readonly now: () => number = () => performance.now()) {}

  /** null: stay quiet; otherwise log now, mentioning `suppressed` occurrences since the last line. */
  take(key: string): { suppressed: number } | null {
    const t = this.now();
    const seen = this.last.get(key);
    if (seen && t - seen.at < this.intervalMs) {
      seen.suppressed++;
      return null;
    }
    this.last.set(key, { at: t, suppressed: 0 });
    return { suppressed: seen?.suppressed ?? 0 };
  }
}
