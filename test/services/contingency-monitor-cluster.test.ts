import test from 'ava';
import { startStack } from '../support/stack.js';
import { ManualClock } from '../../services/shared/clock.js';
import { createA1, createCa } from '../support/certificates.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';

const FIVE_MIN = 5 * 60_000;
const quiet = { MONITOR_ENABLED: '0', WEBHOOK_POLL_MS: '0', SEFAZ_CONNECT_TIMEOUT_MS: '800', SEFAZ_READ_TIMEOUT_MS: '1500', SEFAZ_CONSULT_RETRIES: '0' };
type Checked = { checked: { uf: string; ambiente: string; outcome: string }[] };

test('two monitor nodes polling at once check each UF once per interval and emit a transition once', async (t) => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const stack = await startStack({
    clock, redis: true,
    nodes: [{ services: ['sefaz', 'contingency-monitor'] }, { services: ['contingency-monitor'] }],
    env: quiet,
  });
  t.teardown(() => stack.stop());
  const simulator: SefazSimulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  const pollBoth = async () => {
    const [a, b] = await Promise.all(stack.nodes.map((n) => n.call<Checked, any>('v1.contingency-monitor.pollDue', {}, { nodeID: n.nodeID })));
    return [...a!.checked, ...b!.checked];
  };
  const first = await pollBoth();
  t.is(first.length, 27);
  t.is(new Set(first.map((c) => c.uf)).size, 27, 'no UF checked by both nodes');

  simulator.faults.add({ mode: 'down', uf: 'SP', cStat: 109 });
  clock.advance(FIVE_MIN);
  const second = await pollBoth();
  t.is(second.length, 27);
  t.is(new Set(second.map((c) => c.uf)).size, 27);
  t.deepEqual(second.filter((c) => c.outcome === 'transition').map((c) => c.uf), ['SP']);
  const rows = await stack.knex('monitor.outbox');
  t.is(rows.length, 1);
  t.like(typeof rows[0].payload === 'string' ? JSON.parse(rows[0].payload) : rows[0].payload, {
    type: 'sefaz.status.changed', data: { uf: 'SP', status: 'down', cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão', ambiente: 'homologacao' },
  });
  t.deepEqual(await pollBoth(), [], 'nothing due before the next interval on either node');
});

test('the view every node keeps of a UF (the NFC-e contingency input) follows a transition another node recorded, without waiting for its lease', async (t) => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const stack = await startStack({
    clock, redis: true,
    nodes: [{ services: ['sefaz', 'contingency-monitor'] }, { services: ['contingency-monitor'] }],
    env: { ...quiet, CACHE_LEASE_MS: '10000' },
  });
  t.teardown(() => stack.stop());
  const simulator: SefazSimulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  const statusOn = (i: number) => stack.nodes[i]!.call<any, any>('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' }, { nodeID: stack.nodes[i]!.nodeID });
  await stack.nodes[0]!.call('v1.contingency-monitor.checkNow', { uf: 'SP', ambiente: 'homologacao' }, { nodeID: stack.nodes[0]!.nodeID });
  for (const i of [0, 1]) t.like(await statusOn(i), { status: 'up', confirmedDown: false }, `node ${i} keeps SP up`);
  // The row changes under both nodes' kept views: only the one that records it is told by its own write.
  simulator.faults.add({ mode: 'down', uf: 'SP', cStat: 109 });
  const { checked } = await stack.nodes[0]!.call<Checked, any>('v1.contingency-monitor.checkNow', { uf: 'SP', ambiente: 'homologacao' }, { nodeID: stack.nodes[0]!.nodeID });
  t.deepEqual(checked.map((c) => c.outcome), ['transition']);
  t.like(await statusOn(0), { status: 'down', confirmedDown: true });
  let seen: any;
  for (let i = 0; i < 50 && (seen = await statusOn(1)).status !== 'down'; i++) await new Promise((r) => setTimeout(r, 20));
  t.like(seen, { status: 'down', confirmedDown: true }, 'node 1 dropped its view on the broadcast, well within the 10 s lease');
});

test('an expired monitoring certificate is our own failure: the first poll confirms nothing and no UF becomes down', async (t) => {
  const expired = createA1(createCa(), { cnpj: '11222333000181', password: 'monitor', notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
  const clock = new ManualClock(new Date());
  const stack = await startStack({
    clock,
    nodes: [{ services: ['sefaz', 'contingency-monitor'] }],
    env: { ...quiet, MONITOR_CERT_BASE64: expired.pfxBase64, MONITOR_CERT_PASSWORD: 'monitor' },
  });
  t.teardown(() => stack.stop());
  const simulator: SefazSimulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  simulator.faults.add({ mode: 'down', uf: 'SP' }); // even a UF really down is not reported without a confirmed answer
  const { checked } = await stack.nodes[0]!.call<Checked, any>('v1.contingency-monitor.pollDue', {});
  t.is(checked.length, 27);
  t.true(checked.every((c) => c.outcome === 'own-failure'));
  const sp = await stack.nodes[0]!.call<any, any>('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' });
  t.like(sp, { status: null, confirmedDown: false, lastFailure: { reason: 'tls', consecutive: 1 } });
  t.regex(sp.lastFailure.detail, /monitoring certificate expired/);
  t.is((await stack.knex('monitor.outbox')).length, 0);
});

test('a monitoring certificate the authority does not trust is refused in the handshake: own failure, never down', async (t) => {
  const untrusted = createA1(createCa('AC Desconhecida'), { cnpj: '11222333000181', password: 'monitor' });
  const stack = await startStack({
    nodes: [{ services: ['sefaz', 'contingency-monitor'] }],
    // The refusal comes in the handshake, at once; `quiet`'s 800 ms connect timeout could pass first
    // on a loaded machine (a CI run saw timeout-before-send), so this test keeps a long one.
    env: { ...quiet, SEFAZ_CONNECT_TIMEOUT_MS: '15000', MONITOR_CERT_BASE64: untrusted.pfxBase64, MONITOR_CERT_PASSWORD: 'monitor' },
  });
  t.teardown(() => stack.stop());
  const { checked } = await stack.nodes[0]!.call<Checked, any>('v1.contingency-monitor.checkNow', { uf: 'RS' });
  t.deepEqual(checked, [{ uf: 'RS', ambiente: 'homologacao', outcome: 'own-failure' }]);
  t.like(await stack.nodes[0]!.call<any, any>('v1.contingency-monitor.statusOf', { uf: 'RS', ambiente: 'homologacao' }), { status: null, confirmedDown: false, lastFailure: { reason: 'tls' } });
});

test('with MONITOR_ENABLED the node polls on its own timer with the sandbox certificate', async (t) => {
  const stack = await startStack({
    nodes: [{ services: ['sefaz', 'contingency-monitor'] }],
    // The authority's default timeouts, not `quiet`'s: under a loaded CI machine an 800 ms connect
    // timeout turns a check into our own failure, which (rightly) waits a whole interval to retry.
    env: { MONITOR_ENABLED: '1', MONITOR_TICK_MS: '200', WEBHOOK_POLL_MS: '0' },
  });
  t.teardown(() => stack.stop());
  const deadline = Date.now() + 60_000; // leaves early; a loaded CI machine needs more than the usual ~15 s
  let up = 0;
  while (Date.now() < deadline && up < 27) {
    await new Promise((r) => setTimeout(r, 200));
    up = (await stack.knex('monitor.authority_status').where({ status: 'up', c_stat: 107 })).length;
  }
  t.is(up, 27);
  t.is((await stack.knex('monitor.outbox')).length, 0);
});
