import test from 'ava';
import { GroupQueue } from '../../../services/shared/group-queue.js';

/** services/shared/group-queue.ts: group commit per key. */
function recorder(maxGroup: number, answer: (key: string, items: number[]) => Array<PromiseSettledResult<number>> = (_k, items) => items.map((i) => ({ status: 'fulfilled', value: i * 10 }))) {
  const runs: Array<[string, number[]]> = [];
  const queue = new GroupQueue<string, number, number>(maxGroup, async (key, items) => {
    runs.push([key, items]);
    await new Promise<void>((r) => setImmediate(r));
    return answer(key, items);
  });
  return { queue, runs };
}

test('an idle key runs at once with one item; items submitted meanwhile go together, at most maxGroup at a time', async (t) => {
  const { queue, runs } = recorder(3);
  const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => queue.submit('a', i)));
  t.deepEqual(answers, [10, 20, 30, 40, 50, 60]);
  t.deepEqual(runs, [['a', [1]], ['a', [2, 3, 4]], ['a', [5, 6]]]);
});

test('keys do not wait for each other', async (t) => {
  const { queue, runs } = recorder(8);
  await Promise.all([queue.submit('a', 1), queue.submit('b', 2), queue.submit('a', 3), queue.submit('b', 4)]);
  t.deepEqual(runs, [['a', [1]], ['b', [2]], ['a', [3]], ['b', [4]]]);
});

test('an item may fail alone; a run that throws fails its whole group, and the key goes on', async (t) => {
  let calls = 0;
  const queue = new GroupQueue<string, number, number>(8, async (_key, items) => {
    calls++;
    if (items.includes(99)) throw new Error('o grupo falhou');
    return items.map((i) => (i < 0 ? { status: 'rejected', reason: new Error(`item ${i}`) } : { status: 'fulfilled', value: i }));
  });
  const settled = await Promise.allSettled([queue.submit('k', 1), queue.submit('k', -2), queue.submit('k', 3)]);
  t.deepEqual(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)), [1, 'item -2', 3]);
  const failed = await Promise.allSettled([queue.submit('k', 4), queue.submit('k', 99), queue.submit('k', 5)]);
  t.deepEqual(failed.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)), [4, 'o grupo falhou', 'o grupo falhou']);
  t.is(await queue.submit('k', 7), 7);
  t.is(calls, 5);
});

test('a run that answers a different number of results fails its group', async (t) => {
  const queue = new GroupQueue<string, number, number>(4, async () => []);
  await t.throwsAsync(queue.submit('k', 1), { message: 'GroupQueue: 0 results for 1 items' });
});
