import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { FakeAuthService } from '../support/fake-auth.js';
import { ManualClock } from '../../services/shared/clock.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { liveKey, runDue, subscribe, waitFor } from '../support/webhooks.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';

const FIVE_MIN = 5 * 60_000;
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let stack: Stack;
let simulator: SefazSimulator;
let optIn: Receiver;
let notSubscribed: Receiver;
let otherEvents: Receiver;

test.before(async () => {
  stack = await startStack({
    clock,
    nodes: [{ services: ['api-gateway', 'sefaz', 'contingency-monitor', 'webhook-dispatcher'], extra: [FakeAuthService] }],
    env: { MONITOR_ENABLED: '0', WEBHOOK_POLL_MS: '0', SEFAZ_CONNECT_TIMEOUT_MS: '800', SEFAZ_READ_TIMEOUT_MS: '1500', SEFAZ_CONSULT_RETRIES: '0', SEFAZ_RETRY_DELAY_MS: '10' },
  });
  simulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  optIn = await startReceiver();
  notSubscribed = await startReceiver();
  otherEvents = await startReceiver();
  await subscribe(stack, optIn, 'p-monitor-optin', ['sefaz.status.changed']);
  await subscribe(stack, notSubscribed, 'p-monitor-all', []);
  await subscribe(stack, otherEvents, 'p-monitor-other', ['invoice.authorized']);
});
test.after.always(async () => {
  await Promise.all([optIn, notSubscribed, otherEvents].map((r) => r?.close()));
  await stack?.stop();
});

// Shared simulator, clock and monitor state: the tests tell one story and run serially.
const call = <T = any>(action: string, params: Record<string, unknown> = {}) => stack.nodes[0]!.call<T, any>(action, params);
const pollDue = async () => (await call<{ checked: { uf: string; ambiente: string; outcome: string }[] }>('v1.contingency-monitor.pollDue')).checked;
const outcomesOf = (checked: { uf: string; outcome: string }[]) => Object.fromEntries(checked.map((c) => [c.uf, c.outcome]));
const events = () => stack.knex('monitor.outbox').orderBy('created_at').then((rows: any[]) => rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload)));

test.serial('the first poll checks the 27 UFs of homologação once, records up and emits nothing', async (t) => {
  const checked = await pollDue();
  t.is(checked.length, 27);
  t.is(new Set(checked.map((c) => c.uf)).size, 27);
  t.true(checked.every((c) => c.ambiente === 'homologacao' && c.outcome === 'first'));
  t.deepEqual(await events(), []);
  t.deepEqual(await pollDue(), [], 'nothing is due again before the interval');
  const res = await stack.request('GET', '/v1/sefaz/status?uf=SP', { headers: liveKey('p-monitor-all') });
  t.is(res.status, 200);
  t.deepEqual(res.body.data, [{ uf: 'SP', ambiente: 'homologacao', status: 'up', cStat: 107, xMotivo: 'Serviço em Operação', checkedAt: clock.now().toISOString(), changedAt: clock.now().toISOString() }]);
  const all = await stack.request('GET', '/v1/sefaz/status', { headers: liveKey('p-monitor-all') });
  t.is(all.body.data.length, 27);
});

test.serial('the read route needs authentication and refuses unknown query fields', async (t) => {
  const anonymous = await stack.request('GET', '/v1/sefaz/status');
  const bad = await stack.request('GET', '/v1/sefaz/status?uf=XX&modelo=55', { headers: liveKey('p-monitor-all') });
  const envelope = (res: { status: number; body: any }) => {
    const { requestId, timestamp, ...rest } = res.body.error;
    t.truthy(requestId);
    t.is(timestamp, clock.now().toISOString());
    return [res.status, rest];
  };
  t.deepEqual(envelope(anonymous), [401, {
    type: 'https://errors.test/UNAUTHORIZED', title: 'Unauthorized', status: 401,
    detail: 'Autenticação necessária: envie x-api-key ou Authorization: Bearer.', instance: '/v1/sefaz/status',
  }]);
  t.deepEqual(envelope(bad), [400, {
    type: 'https://errors.test/VALIDATION_ERROR', title: 'Bad Request', status: 400, detail: 'Dados de entrada inválidos.',
    errors: [
      { field: 'uf', message: "O campo 'uf' deve ser um de: AC, AL, AM, AP, BA, CE, DF, ES, GO, MA, MG, MS, MT, PA, PB, PE, PI, PR, RJ, RN, RO, RR, RS, SC, SE, SP, TO." },
      { field: 'modelo', message: "Campo desconhecido 'modelo'. Campos aceitos: uf, ambiente." },
    ],
    details: { camposDesconhecidos: [{ campo: 'modelo', caminho: 'modelo', objeto: '' }] },
    instance: '/v1/sefaz/status',
  }]);
});

test.serial('SP marked down by the simulator emits exactly one sefaz.status.changed, delivered whole to the opted-in partner only', async (t) => {
  const fault = simulator.faults.add({ mode: 'down', uf: 'SP' });
  t.teardown(() => simulator.faults.clear({ id: fault.id }));
  clock.advance(FIVE_MIN);
  const checked = await pollDue();
  t.is(checked.length, 27);
  const outcomes = outcomesOf(checked);
  t.is(outcomes.SP, 'transition');
  t.true(Object.entries(outcomes).every(([uf, o]) => uf === 'SP' || o === 'unchanged'));
  const [event, ...more] = await events();
  t.deepEqual(more, []);
  const data = { uf: 'SP', status: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)', ambiente: 'homologacao', checkedAt: clock.now().toISOString() };
  t.like(event, { type: 'sefaz.status.changed', partnerId: '*', data });
  t.deepEqual(Object.keys(event.data).sort(), ['ambiente', 'cStat', 'checkedAt', 'status', 'uf', 'xMotivo']);

  await waitFor(() => stack.knex('webhooks.deliveries').where({ event_id: event.id }).first(), 'delivery of the status event');
  await runDue(stack);
  t.deepEqual(optIn.hits.map((h) => h.body), [{ id: event.id, type: 'sefaz.status.changed', timestamp: event.timestamp, data }]);
  t.true(optIn.hits[0]!.verified);
  t.is(notSubscribed.hits.length, 0);
  t.is(otherEvents.hits.length, 0);

  const view = await call('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' });
  t.like(view, { uf: 'SP', ambiente: 'homologacao', monitored: true, status: 'down', cStat: 108, confirmedDown: true });
  t.like(await call('v1.contingency-monitor.statusOf', { uf: 'RJ', ambiente: 'homologacao' }), { status: 'up', confirmedDown: false });

  // Still down at the next interval: nothing new.
  clock.advance(FIVE_MIN);
  t.is(outcomesOf(await pollDue()).SP, 'unchanged');
  t.is((await events()).length, 1);
});

test.serial('SP back up emits up once', async (t) => {
  clock.advance(FIVE_MIN);
  t.is(outcomesOf(await pollDue()).SP, 'transition');
  const all = await events();
  t.is(all.length, 2);
  t.deepEqual(all[1].data, { uf: 'SP', status: 'up', cStat: 107, xMotivo: 'Serviço em Operação', ambiente: 'homologacao', checkedAt: clock.now().toISOString() });
  await waitFor(() => stack.knex('webhooks.deliveries').where({ event_id: all[1].id }).first(), 'delivery of the up event');
  await runDue(stack);
  t.deepEqual(optIn.hits.map((h) => h.body.data.status), ['down', 'up']);
});

test.serial('a timeout or a dropped connection is our own failure: never down, state kept, failure recorded', async (t) => {
  simulator.faults.add({ mode: 'timeout-before-processing', uf: 'SP', service: 'NFeStatusServico4', times: 1 });
  const checked = await call('v1.contingency-monitor.checkNow', { uf: 'SP' });
  t.deepEqual(checked, { checked: [{ uf: 'SP', ambiente: 'homologacao', outcome: 'own-failure' }] });
  simulator.faults.add({ mode: 'tls-flaky', every: 1, times: 1 });
  // A fresh connection is needed for the handshake fault: close the pooled ones first.
  (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).client.close();
  t.like(await call('v1.contingency-monitor.checkNow', { uf: 'RJ' }), { checked: [{ uf: 'RJ', outcome: 'own-failure' }] });
  const sp = await call('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' });
  t.like(sp, { status: 'up', cStat: 107, confirmedDown: false, lastFailure: { consecutive: 1 } });
  t.regex(sp.lastFailure.reason, /timeout|connection-lost|connect/);
  t.like(await call('v1.contingency-monitor.statusOf', { uf: 'RJ', ambiente: 'homologacao' }), { status: 'up', confirmedDown: false });
  t.is((await events()).length, 2);
  // The next good answer clears the failure count and is not a transition.
  t.like(await call('v1.contingency-monitor.checkNow', { uf: 'SP' }), { checked: [{ outcome: 'unchanged' }] });
  t.like(await call('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' }), { lastFailure: { consecutive: 0 } });
});
