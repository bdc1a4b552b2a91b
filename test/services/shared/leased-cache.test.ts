import test from 'ava';
import { LeasedCache } from '../../../services/shared/leased-cache.js';

/** A load the test finishes by hand, to interleave it with invalidations. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

function setup(opts: { leaseMs?: number; maxEntries?: number } = {}) {
  const clock = { now: 0 };
  const cache = new LeasedCache<string>({ leaseMs: opts.leaseMs ?? 1_000, maxEntries: opts.maxEntries ?? 100, now: () => clock.now });
  const loads: string[] = [];
  const loader = (key: string, value: string) => async () => { loads.push(key); return value; };
  return { clock, cache, loads, loader };
}

test('LeasedCache serves an entry for its lease counted from the start of the load, then loads again', async (t) => {
  const { clock, cache, loads } = setup({ leaseMs: 1_000 });
  const slow = deferred<string>();
  clock.now = 100;
  const first = cache.get('a', () => { loads.push('a'); return slow.promise; });
  clock.now = 700; // the load took 600 ms: the entry has 400 ms left, not 1000
  slow.resolve('v1');
  t.is(await first, 'v1');
  clock.now = 1_099;
  t.is(await cache.get('a', async () => { loads.push('a'); return 'v2'; }), 'v1');
  t.is(cache.peek('a'), 'v1');
  clock.now = 1_100;
  t.is(cache.peek('a'), undefined, 'the lease ends 1000 ms after the load started');
  t.is(await cache.get('a', async () => { loads.push('a'); return 'v2'; }), 'v2');
  t.deepEqual(loads, ['a', 'a']);
});

test('LeasedCache: a load that started before an invalidation answers its caller but keeps nothing', async (t) => {
  const { cache, loads, loader } = setup();
  const old = deferred<string>();
  const before = cache.get('a', () => old.promise);
  cache.invalidate(['a']); // a write committed while the read was in flight
  const after = await cache.get('a', loader('a', 'new'));
  t.is(after, 'new');
  old.resolve('old');
  t.is(await before, 'old', 'the caller that came first gets what it read');
  t.is(cache.peek('a'), 'new', 'the older read did not replace the newer entry');
  t.is(await cache.get('a', loader('a', 'again')), 'new');
  t.deepEqual(loads, ['a']);
});

test('LeasedCache: an invalidation of any key, or of all, voids every load in flight', async (t) => {
  const { cache } = setup();
  const a = deferred<string>();
  const b = deferred<string>();
  const loadA = cache.get('a', () => a.promise);
  const loadB = cache.get('b', () => b.promise);
  cache.invalidate(['other']);
  a.resolve('A');
  t.is(await loadA, 'A');
  t.is(cache.peek('a'), undefined);
  cache.invalidateAll();
  b.resolve('B');
  t.is(await loadB, 'B');
  t.is(cache.size, 0);
});

test('LeasedCache.invalidate drops the keys named and leaves the others', async (t) => {
  const { cache, loader } = setup();
  await cache.get('a', loader('a', 'A'));
  await cache.get('b', loader('b', 'B'));
  cache.invalidate(['a']);
  t.is(cache.peek('a'), undefined);
  t.is(cache.peek('b'), 'B');
  cache.invalidateAll();
  t.is(cache.peek('b'), undefined);
});

test('LeasedCache keeps at most maxEntries, dropping the least recently used', async (t) => {
  const { clock, cache, loader } = setup({ maxEntries: 2 });
  await cache.get('a', loader('a', 'A'));
  clock.now = 1;
  await cache.get('b', loader('b', 'B'));
  clock.now = 2;
  t.is(await cache.get('a', loader('a', 'A2')), 'A', 'a hit makes a the most recent');
  await cache.get('c', loader('c', 'C'));
  t.is(cache.size, 2);
  t.is(cache.peek('a'), 'A');
  t.is(cache.peek('b'), undefined);
  t.is(cache.peek('c'), 'C');
});

test('LeasedCache never keeps undefined: an unknown key is loaded every time', async (t) => {
  const { cache, loads } = setup();
  const missing = async () => { loads.push('x'); return undefined; };
  t.is(await cache.get('x', missing), undefined);
  t.is(await cache.get('x', missing), undefined);
  t.deepEqual(loads, ['x', 'x']);
  t.is(cache.size, 0);
});

test('LeasedCache.holdFor drops everything and keeps no load that starts within the hold', async (t) => {
  const { clock, cache, loads, loader } = setup({ leaseMs: 1_000 });
  await cache.get('a', loader('a', 'A'));
  cache.holdFor(500);
  t.is(cache.size, 0);
  clock.now = 499;
  t.is(await cache.get('a', loader('a', 'A1')), 'A1');
  t.is(cache.size, 0, 'started inside the hold: not kept');
  clock.now = 500;
  t.is(await cache.get('a', loader('a', 'A2')), 'A2');
  t.is(await cache.get('a', loader('a', 'A3')), 'A2', 'started when the hold ended: kept');
  cache.holdFor(Number.POSITIVE_INFINITY);
  clock.now = 1e9;
  t.is(await cache.get('a', loader('a', 'A4')), 'A4');
  t.is(cache.size, 0, 'an endless hold keeps nothing until the next hold');
  t.deepEqual(loads, ['a', 'a', 'a', 'a']);
});

test('LeasedCache.getMany loads only the missing keys in one call, keeps what it answered, skips what it left out', async (t) => {
  const { cache } = setup();
  const calls: string[][] = [];
  const load = async (missing: string[]) => {
    calls.push(missing);
    return new Map(missing.filter((k) => k !== 'gone').map((k) => [k, `v-${k}`]));
  };
  t.deepEqual([...await cache.getMany(['a', 'b', 'a'], load)], [['a', 'v-a'], ['b', 'v-b']]);
  t.deepEqual([...await cache.getMany(['b', 'c', 'gone'], load)], [['b', 'v-b'], ['c', 'v-c']]);
  t.deepEqual(calls, [['a', 'b'], ['c', 'gone']]);
  t.is(cache.peek('gone'), undefined);

  const slow = deferred<Map<string, string>>();
  const inFlight = cache.getMany(['d'], () => slow.promise);
  cache.invalidate(['d']);
  slow.resolve(new Map([['d', 'old']]));
  t.deepEqual([...await inFlight], [['d', 'old']]);
  t.is(cache.peek('d'), undefined, 'a batch load that started before an invalidation keeps nothing');
});

test('LeasedCache with a lease of 0 serves nothing from memory', async (t) => {
  const { cache, loads, loader } = setup({ leaseMs: 0 });
  await cache.get('a', loader('a', 'A'));
  await cache.get('a', loader('a', 'A'));
  t.deepEqual(loads, ['a', 'a']);
});
