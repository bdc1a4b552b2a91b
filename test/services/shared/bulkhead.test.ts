import test from 'ava';
import { Bulkhead } from '../../../services/shared/bulkhead.js';

/** A piece of work that runs until released, recording when it started. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((r) => { release = r; });
  return { done, release };
}
const tick = () => new Promise((r) => setImmediate(r));

test('Bulkhead runs at most `concurrency` calls of a lane and the rest in arrival order, none refused', async (t) => {
  const b = new Bulkhead({ concurrency: 2, maxQueued: 100, queueTimeoutMs: 10_000 });
  const started: number[] = [];
  const gates = Array.from({ length: 6 }, gate);
  const runs = gates.map((g, i) => b.run('issuer-a', async () => { started.push(i); await g.done; return `ok ${i}`; }, (r) => r.reason));
  await tick();
  t.deepEqual(started, [0, 1]);
  t.deepEqual(b.load('issuer-a'), { active: 2, waiting: 4 });
  gates[1]!.release();
  await tick();
  t.deepEqual(started, [0, 1, 2]);
  for (const g of gates) g.release();
  t.deepEqual(await Promise.all(runs), ['ok 0', 'ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
  t.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  t.deepEqual(b.load('issuer-a'), { active: 0, waiting: 0 });
});

test("Bulkhead lanes share nothing: one issuer's full lane does not delay another's call", async (t) => {
  const b = new Bulkhead({ concurrency: 1, maxQueued: 100, queueTimeoutMs: 10_000 });
  const busy = gate();
  const burst = Array.from({ length: 50 }, () => b.run('issuer-a', () => busy.done.then(() => 'a'), (r) => r.reason));
  t.is(await b.run('issuer-b', async () => 'b ran at once', (r) => r.reason), 'b ran at once');
  t.deepEqual(b.load('issuer-a'), { active: 1, waiting: 49 });
  busy.release();
  t.true((await Promise.all(burst)).every((r) => r === 'a'));
});

test('Bulkhead refuses beyond maxQueued at once and after queueTimeoutMs, before running anything', async (t) => {
  const b = new Bulkhead({ concurrency: 1, maxQueued: 1, queueTimeoutMs: 50 });
  const busy = gate();
  let ran = 0;
  const refused = (r: { reason: string; waiting: number; timeoutMs: number }) => `${r.reason}: ${r.waiting} waiting, ${r.timeoutMs} ms`;
  const first = b.run('a', () => busy.done.then(() => String(++ran)), refused);
  const waiting = b.run('a', async () => String(++ran), refused);
  const full = await b.run('a', async () => String(++ran), refused);
  t.is(full, 'queue-full: 1 waiting, 50 ms');
  t.is(await waiting, 'queue-timeout: 0 waiting, 50 ms');
  t.is(ran, 0);
  busy.release();
  t.is(await first, '1');
  t.deepEqual(b.load('a'), { active: 0, waiting: 0 });
});

test('Bulkhead frees the slot when the work throws', async (t) => {
  const b = new Bulkhead({ concurrency: 1, maxQueued: 10, queueTimeoutMs: 1_000 });
  await t.throwsAsync(b.run('a', async () => { throw new Error('boom'); }, (r) => r.reason), { message: 'boom' });
  t.is(await b.run('a', async () => 'next', (r) => r.reason), 'next');
});

test('Bulkhead runGrouped: a call given the slot takes along the waiting calls of its group (at most maxGroup), in arrival order; others keep their place', async (t) => {
  const bulkhead = new Bulkhead({ concurrency: 1, maxQueued: 10, queueTimeoutMs: 1_000, maxGroup: 3 });
  const runs: string[][] = [];
  const held = gate();
  const work = async (items: string[]) => {
    runs.push(items);
    if (items[0] === 'a1') await held.done;
    return items.map((i) => (i === 'a4' ? { status: 'rejected' as const, reason: new Error(`falhou ${i}`) } : { status: 'fulfilled' as const, value: i.toUpperCase() }));
  };
  const refused = () => 'recusado';
  const calls = [['s', 'a1'], ['s', 'a2'], ['t', 'b1'], ['s', 'a3'], ['s', 'a4'], ['s', 'a5'], ['t', 'b2']].map(([group, item]) => bulkhead.runGrouped('emissor', group!, item!, work, refused));
  await tick();
  t.deepEqual(bulkhead.load('emissor'), { active: 1, waiting: 6 });
  held.release();
  const settled = await Promise.allSettled(calls);
  t.deepEqual(runs, [['a1'], ['a2', 'a3', 'a4'], ['b1', 'b2'], ['a5']]);
  t.deepEqual(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)), ['A1', 'A2', 'B1', 'A3', 'falhou a4', 'A5', 'B2']);
  t.deepEqual(bulkhead.load('emissor'), { active: 0, waiting: 0 });
});

test('Bulkhead runGrouped: a run that throws fails every call it served and frees the slot; refusals are as for run', async (t) => {
  const bulkhead = new Bulkhead({ concurrency: 1, maxQueued: 2, queueTimeoutMs: 1_000, maxGroup: 8 });
  const held = gate();
  const first = bulkhead.runGrouped('emissor', 's', 1, async (items) => { await held.done; return items.map((i) => ({ status: 'fulfilled' as const, value: i })); }, () => -1);
  const failing = async () => { throw new Error('transação falhou'); };
  const second = bulkhead.runGrouped('emissor', 's', 2, failing, () => -1);
  const third = bulkhead.runGrouped('emissor', 's', 3, failing, () => -1);
  t.is(await bulkhead.runGrouped('emissor', 's', 4, failing, (r) => (r.reason === 'queue-full' ? -2 : -3)), -2);
  held.release();
  t.is(await first, 1);
  await t.throwsAsync(second, { message: 'transação falhou' });
  await t.throwsAsync(third, { message: 'transação falhou' });
  t.deepEqual(bulkhead.load('emissor'), { active: 0, waiting: 0 });
  t.is(await bulkhead.runGrouped('emissor', 's', 5, async (items) => items.map((i) => ({ status: 'fulfilled' as const, value: i * 10 })), () => -1), 50);
});

test('Bulkhead runGrouped: a grouped call waiting past queueTimeoutMs is refused and runs nothing', async (t) => {
  const bulkhead = new Bulkhead({ concurrency: 1, maxQueued: 5, queueTimeoutMs: 30, maxGroup: 8 });
  const held = gate();
  let ran = 0;
  const work = async (items: number[]) => { ran += items.length; await held.done; return items.map((i) => ({ status: 'fulfilled' as const, value: i })); };
  const first = bulkhead.runGrouped('emissor', 's', 1, work, () => -1);
  t.is(await bulkhead.runGrouped('emissor', 's', 2, work, (r) => (r.reason === 'queue-timeout' ? -2 : -3)), -2);
  held.release();
  t.is(await first, 1);
  t.is(ran, 1);
});

test('Bulkhead oneRunPerGroup: a group runs once at a time (its calls wait for that run, taken along), while a free slot serves other groups and plain runs', async (t) => {
  const bulkhead = new Bulkhead({ concurrency: 2, maxQueued: 10, queueTimeoutMs: 1_000, maxGroup: 8, oneRunPerGroup: true });
  const runs: string[][] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const work = async (items: string[]) => {
    runs.push(items);
    const g = gate();
    gates.set(items[0]!, g);
    await g.done;
    return items.map((i) => ({ status: 'fulfilled' as const, value: i.toUpperCase() }));
  };
  const refused = () => 'recusado';
  const a1 = bulkhead.runGrouped('emissor', 's', 'a1', work, refused);
  const a2 = bulkhead.runGrouped('emissor', 's', 'a2', work, refused);
  const a3 = bulkhead.runGrouped('emissor', 's', 'a3', work, refused);
  await tick();
  // A slot is free, yet series s's calls wait for its run.
  t.deepEqual(runs, [['a1']]);
  t.deepEqual(bulkhead.load('emissor'), { active: 1, waiting: 2 });
  // Another series and a plain run take the free slot past them, one after the other.
  const b1 = bulkhead.runGrouped('emissor', 't', 'b1', work, refused);
  const plain = bulkhead.run('emissor', async () => 'plain', refused);
  await tick();
  t.deepEqual(runs, [['a1'], ['b1']]);
  t.deepEqual(bulkhead.load('emissor'), { active: 2, waiting: 3 });
  // s's run ends: its slot goes to the first waiter that may run, s's next call with the rest of s behind it.
  gates.get('a1')!.release();
  t.is(await a1, 'A1');
  await tick();
  t.deepEqual(runs, [['a1'], ['b1'], ['a2', 'a3']]);
  t.deepEqual(bulkhead.load('emissor'), { active: 2, waiting: 1 });
  gates.get('b1')!.release();
  t.is(await plain, 'plain');
  gates.get('a2')!.release();
  t.deepEqual(await Promise.all([a2, a3, b1]), ['A2', 'A3', 'B1']);
  t.deepEqual(bulkhead.load('emissor'), { active: 0, waiting: 0 });
});

test('Bulkhead oneRunPerGroup: with both slots busy, a series waits for a slot and its run takes along every call that queued behind it', async (t) => {
  const bulkhead = new Bulkhead({ concurrency: 2, maxQueued: 10, queueTimeoutMs: 1_000, maxGroup: 8, oneRunPerGroup: true });
  const started: string[] = [];
  const held = new Map<string, ReturnType<typeof gate>>();
  const work = async (items: string[]) => {
    started.push(items.join('+'));
    const g = gate();
    held.set(items[0]!, g);
    await g.done;
    return items.map((i) => ({ status: 'fulfilled' as const, value: i }));
  };
  const calls = [['s', 's1'], ['s', 's2'], ['s', 's3'], ['t', 't1']].map(([group, item]) => bulkhead.runGrouped('emissor', group!, item!, work, () => 'recusado'));
  await tick();
  t.deepEqual(started, ['s1', 't1']);
  held.get('s1')!.release();
  await tick();
  t.deepEqual(started, ['s1', 't1', 's2+s3']);
  held.get('t1')!.release();
  held.get('s2')!.release();
  t.deepEqual(await Promise.all(calls), ['s1', 's2', 's3', 't1']);
  t.deepEqual(bulkhead.load('emissor'), { active: 0, waiting: 0 });
});
