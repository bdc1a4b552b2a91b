import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1 } from '../support/e2e.js';

/** One real emission (every service real, simulator over mTLS), then the node's stage split. */
let stack: Stack;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack();
  ({ headers } = await integratorWithA1(stack));
});
test.after.always(async () => {
  await stack?.stop();
});

test.serial('stageStats reports every stage of one emission, and reset empties it', async (t) => {
  const broker = stack.nodes[0]!;
  await broker.call('v1.emission.stageStats', { reset: true });
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(res.status, 201, res.text);
  t.is(res.body.data.status, 'AUTHORIZED');

  const stats: any = await broker.call('v1.emission.stageStats', { reset: true });
  t.is(stats.nodeID, broker.nodeID);
  t.deepEqual(Object.keys(stats.stages), ['issuer', 'validate', 'rules+totals', 'material', 'build', 'sign', 'xsd', 'persist', 'lock', 'authority', 'outcome', 'total']);
  for (const [stage, s] of Object.entries<any>(stats.stages)) {
    t.is(s.count, 1, stage);
    t.true(s.p50 >= 0 && s.p50 === s.p99, stage);
  }
  const parts = ['issuer', 'validate', 'rules+totals', 'material', 'build', 'sign', 'xsd', 'persist', 'authority', 'outcome'];
  const sum = parts.reduce((acc, k) => acc + stats.stages[k].p50, 0);
  t.true(sum <= stats.stages.total.p50 + 0.01, `stages ${sum} ms ≤ total ${stats.stages.total.p50} ms`);
  t.true(sum >= stats.stages.total.p50 * 0.9, 'the stages cover the emission');
  t.true(stats.stages.lock.p50 <= stats.stages.persist.p50);

  t.deepEqual(((await broker.call('v1.emission.stageStats', {})) as any).stages, {});
  const http = await stack.request('GET', '/v1/emission/stageStats', { headers });
  t.is(http.status, 404, 'not exposed over REST');
});
