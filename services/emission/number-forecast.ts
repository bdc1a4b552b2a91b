/**
 * What this node expects the next claim of a series to answer, so a group of notes can be finished
 * (renumbered and signed) BEFORE its claim, while the group ahead of it holds the series' lock
 * (issue 18: finishing under the lock made the signature, not the database, a series' limit).
 *
 * Only a forecast: the claim stays the truth. A group whose claim answers another first number is
 * finished again under the lock, as without a forecast, and the forecast restarts from that claim.
 * A series that another node also numbers makes forecasts miss; after a miss this node stops
 * forecasting it (a wasted finish costs CPU) and tries again every PROBE_EVERY groups.
 */
const PROBE_EVERY = 16;
/** Series remembered per node; past it the memory starts over (a forecast is only an optimisation). */
const MAX_SERIES = 10_000;

interface Expectation {
  /** The first number the next group of the series should claim. */
  next: number;
  /** Whether the last forecast held. */
  held: boolean;
  /** Groups numbered without a forecast since the last miss. */
  unforecast: number;
}

export class NumberForecast {
  private readonly series = new Map<string, Expectation>();
  /** Per series, the claim of the group that took its forecast last (claims follow forecasts). */
  private readonly claims = new Map<string, Promise<void>>();

  /**
   * The group's place among this node's groups of the series: `ready` once every group that took
   * its forecast before has claimed (or failed), `done` when this one has. A later group finished
   * sooner must not claim the numbers forecast for an earlier one.
   */
  turn(series: string): { ready: Promise<void>; done: () => void } {
    const ready = this.claims.get(series) ?? Promise.resolve();
    let done!: () => void;
    const claimed = new Promise<void>((resolve) => { done = resolve; });
    this.claims.set(series, claimed);
    return {
      ready,
      done: () => {
        done();
        if (this.claims.get(series) === claimed) this.claims.delete(series);
      },
    };
  }

  /** The first number a group of `size` should claim, or undefined when the series is not forecast now. Advances past the group. */
  take(series: string, size: number): number | undefined {
    const e = this.series.get(series);
    if (!e) return undefined;
    if (!e.held && ++e.unforecast < PROBE_EVERY) return undefined;
    e.unforecast = 0;
    const first = e.next;
    e.next += size;
    return first;
  }

  /** A group of `size` claimed from `first` (`forecast`: what take answered for it). */
  claimed(series: string, first: number, size: number, forecast: number | undefined): void {
    const e = this.series.get(series);
    if (!e) {
      if (this.series.size >= MAX_SERIES) this.series.clear();
      this.series.set(series, { next: first + size, held: true, unforecast: 0 });
      return;
    }
    if (forecast === undefined) {
      // Not forecast (after a miss): numbering from the claim on, as far as this node knows.
      if (!e.held) e.next = Math.max(e.next, first + size);
      return;
    }
    e.held = forecast === first;
    if (!e.held) {
      e.next = first + size;
      e.unforecast = 0;
    }
  }

  /** The group rolled back: its numbers were not taken, so nothing after them holds. */
  forget(series: string): void {
    this.series.delete(series);
  }
}
