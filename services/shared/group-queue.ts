/**
 * Group commit per key: work submitted for a key while a run for that key is in flight waits and
 * is then handed over in one group (at most `maxGroup` items), so N concurrent callers cost
 * ⌈N / group⌉ runs instead of N. An idle key runs at once with a group of one: no item ever waits
 * for company, only for the run ahead of it (issue 18: a series' notes queue on its number lock
 * anyway, so waiting here replaces waiting there).
 *
 * `run` answers one settled result per item, in order (an item may fail alone), or throws to fail
 * the whole group.
 */
export class GroupQueue<K, I, R> {
  private readonly waiting = new Map<K, Array<{ item: I; resolve: (r: R) => void; reject: (e: unknown) => void }>>();

  constructor(private readonly maxGroup: number, private readonly run: (key: K, items: I[]) => Promise<Array<PromiseSettledResult<R>>>) {
    if (!(maxGroup >= 1)) throw new Error('GroupQueue: maxGroup must be at least 1');
  }

  submit(key: K, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      // No run in flight for the key: the queue's presence in the map marks one from now on.
      this.waiting.set(key, [{ item, resolve, reject }]);
      void this.drain(key);
    });
  }

  private async drain(key: K): Promise<void> {
    const queue = this.waiting.get(key)!;
    while (queue.length) {
      const group = queue.splice(0, this.maxGroup);
      try {
        const results = await this.run(key, group.map((g) => g.item));
        if (results.length !== group.length) throw new Error(`GroupQueue: ${results.length} results for ${group.length} items`);
        group.forEach((g, i) => {
          const result = results[i]!;
          if (result.status === 'fulfilled') g.resolve(result.value);
          else g.reject(result.reason);
        });
      } catch (err) {
        for (const g of group) g.reject(err);
      }
    }
    this.waiting.delete(key);
  }
}
