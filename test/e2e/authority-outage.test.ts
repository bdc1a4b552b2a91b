import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { waitFor } from '../support/webhooks.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';
import { ManualClock } from '../../services/shared/clock.js';

/**
 * Issue 20, defects 3 and 6, with every service real and the authority simulator. A 109 that an
 * issuer's own call reads is recorded by the monitor at once. SP goes down
 * (NfeStatusServico4 answers 108, every other service HTTP 503); two NF-e fail before sending and
 * open SP's circuit (threshold 2). The monitor's status call is the probe and bypasses that circuit,
 * so the monitor sees SP down and the next NFC-e is issued in offline contingency instead of a 503.
 * When SP is back, the sefaz node's recovery probe (every cooldown, 1.5 s here) closes the circuit
 * and the notes that failed before sending are authorized at once, without the 2-minute
 * reconciliation: the manual clock never moves and no reconciliation round is run.
 */
const clock = new ManualClock(new Date().toISOString());
let stack: Stack;
let simulator: SefazSimulator;
let headers: Record<string, string>;
let issuerId: string;
const failedBeforeSending: string[] = [];

test.before(async () => {
  stack = await startStack({
    clock,
    env: { WEBHOOK_POLL_MS: '0', SEFAZ_BREAKER_THRESHOLD: '2', SEFAZ_CONSULT_RETRIES: '0', SEFAZ_BREAKER_COOLDOWN_MS: '1500' },
  });
  simulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  ({ headers, issuerId } = await integratorWithA1(stack, SANDBOX_CSC));
});
test.after.always(async () => { await stack?.stop(); });

const call = <T = any>(action: string, params: Record<string, unknown> = {}) => stack.nodes[0]!.call<T, any>(action, params);
const checkSp = () => call('v1.contingency-monitor.checkNow', { uf: 'SP', ambiente: 'homologacao' });
const spView = () => call('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' });
const statusEvents = async () => (await stack.knex('monitor.outbox').orderBy('created_at')).map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
  .filter((e: any) => e.type === 'sefaz.status.changed').map((e: any) => `${e.data.uf} ${e.data.status} ${e.data.cStat}`)
  // The manual clock never moves, so every row has the same created_at and their order is arbitrary:
  // the set of changes announced is what is compared.
  .sort();

test.serial("a 109 read by an issuer's own call is evidence: the monitor records RJ down without a round of its own", async (t) => {
  t.like(await call('v1.contingency-monitor.checkNow', { uf: 'RJ', ambiente: 'homologacao' }), { checked: [{ uf: 'RJ', outcome: 'first' }] });
  const fault = simulator.faults.add({ mode: 'down', uf: 'RJ', cStat: 109 });
  t.teardown(() => simulator.faults.clear({ id: fault.id }));
  t.like(await call('v1.sefaz.status', { uf: 'RJ', model: '55', ambiente: 2, issuerId }), { kind: 'down', cStat: 109 });
  const rj = await waitFor(async () => {
    const view = await call('v1.contingency-monitor.statusOf', { uf: 'RJ', ambiente: 'homologacao' });
    return view.confirmedDown ? view : null;
  }, 'the monitor to take the evidence');
  t.like(rj, { status: 'down', cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão', lastFailure: null });
  t.deepEqual(await statusEvents(), ['RJ down 109']);
});

test.serial('with SP down and its circuit open, the monitor still sees 108 and an NFC-e enters offline contingency', async (t) => {
  t.like(await checkSp(), { checked: [{ uf: 'SP', outcome: 'first' }] });
  simulator.faults.add({ mode: 'down', uf: 'SP' });

  for (let i = 0; i < 2; i++) {
    const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
    t.is(res.status, 201, res.text);
    t.is(res.body.data.status, 'ERROR');
    failedBeforeSending.push(res.body.data.id);
  }
  // The circuit is open: an issuer's own status call is short-circuited without reaching SP.
  t.like(await call('v1.sefaz.status', { uf: 'SP', model: '55', ambiente: 2, issuerId }), { kind: 'failed', reason: 'circuit-open', detail: 'circuit open for SP|55|2' });

  // The opening made the monitor check SP at once; a regular round (checkNow) agrees.
  await waitFor(async () => (await spView()).confirmedDown === true, 'the monitor to see SP down');
  t.like(await checkSp(), { checked: [{ uf: 'SP', outcome: 'unchanged' }] });
  t.like(await spView(), { status: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)', confirmedDown: true });
  t.deepEqual(await statusEvents(), ['RJ down 109', 'SP down 108']);

  const nfce = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(nfce.status, 201, nfce.text);
  t.like(nfce.body.data, { status: 'CONTINGENCIA_PENDENTE', protocol: null, contingencia: { motivo: 'autorizadora-indisponivel' } });
  t.is(nfce.body.data.accessKey[34], '9', 'tpEmis 9 in the key');
  t.is(await stack.knex('simulator.notes').where({ access_key: nfce.body.data.accessKey }).first(), undefined, 'nothing was sent');
});

test.serial('SP back: the recovery probe closes the circuit and the notes that failed before sending are authorized at once', async (t) => {
  t.is(failedBeforeSending.length, 2);
  const before = await stack.knex('emission.documents').whereIn('id', failedBeforeSending).select('id', 'status', 'next_check_at', 'access_key');
  t.deepEqual(before.map((d: any) => d.status), ['ERROR', 'ERROR']);
  // Their reconciliation slot is 2 minutes away, and the clock does not move in this test.
  t.true(before.every((d: any) => new Date(d.next_check_at).getTime() - clock.now().getTime() >= 2 * 60_000 - 1_000));
  simulator.faults.clear({ uf: 'SP' });

  for (const id of failedBeforeSending) {
    const doc = await waitFor(async () => {
      const res = await stack.request('GET', `/v1/nfe/${id}`, { headers });
      return res.body?.data?.status === 'AUTHORIZED' ? res.body.data : null;
    }, `note ${id} authorized after recovery`);
    t.regex(doc.protocol, /^\d{15}$/);
    t.is(doc.accessKey, before.find((d: any) => d.id === id)!.access_key, 'same key: the stored XML was sent again');
  }
  const triggers = await stack.knex('emission.document_history').whereIn('document_id', failedBeforeSending).orderBy('id').select('document_id', 'trigger', 'to_status');
  for (const id of failedBeforeSending) {
    t.deepEqual(triggers.filter((h: any) => h.document_id === id).map((h: any) => `${h.trigger} → ${h.to_status}`), [
      'emission → CREATED', 'emission → TRANSMITTING', 'authorization:failed → ERROR', 'retransmit → TRANSMITTING', 'authorization:authorized → AUTHORIZED',
    ]);
  }
  t.like(await call('v1.sefaz.status', { uf: 'SP', model: '55', ambiente: 2, issuerId }), { kind: 'up', cStat: 107 });
  // The probe's 107 is evidence for the monitor too: SP is up again without waiting for its round.
  await waitFor(async () => (await spView()).status === 'up', 'the monitor to see SP up');
  t.deepEqual(await statusEvents(), ['RJ down 109', 'SP down 108', 'SP up 107']);
});
