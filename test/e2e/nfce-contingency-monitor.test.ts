import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody } from '../support/nfe-factories.js';
import type { Receiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/webhooks.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { integratorWithA1, SANDBOX_CSC, subscribedReceiver } from '../support/e2e.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';
import { ManualClock } from '../../services/shared/clock.js';

/**
 * The automatic path into NFC-e contingency with every service real: the simulator takes SP down,
 * the availability monitor observes it (NFeStatusServico4 answers 108), an NFC-e sent without
 * `contingencia` is then signed offline (tpEmis 9) and nothing reaches the authority; when SP is
 * back and the monitor has seen it, the contingency scheduler has the same note authorized.
 * The monitor's timer is off (MONITOR_ENABLED=0 in test stacks): `checkNow` stands in for a tick.
 */
// A manual clock (starting now, so the sandbox A1 is valid) moves the scheduler's backoff on.
const clock = new ManualClock(new Date().toISOString());
let stack: Stack;
let simulator: SefazSimulator;
let receiver: Receiver;
let headers: Record<string, string>;

test.before(async () => {
  stack = await startStack({ clock, env: { WEBHOOK_POLL_MS: '200' } });
  simulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
  receiver = await subscribedReceiver(stack, headers);
});
test.after.always(async () => {
  await receiver?.close();
  await stack?.stop();
});

const checkSp = () => stack.nodes[0]!.call<any, any>('v1.contingency-monitor.checkNow', { uf: 'SP', ambiente: 'homologacao' });
const spView = () => stack.nodes[0]!.call<any, any>('v1.contingency-monitor.statusOf', { uf: 'SP', ambiente: 'homologacao' });

test.serial('SP confirmed down by the monitor → NFC-e in contingency without any send; SP back → the scheduler has it AUTHORIZED', async (t) => {
  const fault = simulator.faults.add({ mode: 'down', uf: 'SP' });
  t.teardown(() => simulator.faults.clear({ id: fault.id }));
  await checkSp();
  t.like(await spView(), { status: 'down', cStat: 108, confirmedDown: true });

  const res = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(res.status, 201, res.text);
  const d = res.body.data;
  t.like(d, { status: 'CONTINGENCIA_PENDENTE', protocol: null, number: 1, contingencia: { motivo: 'autorizadora-indisponivel' } });
  t.is(d.accessKey[34], '9', 'tpEmis 9 in the key');
  const row = await stack.knex('emission.documents').where({ id: d.id }).first('transmitted_xml');
  t.true(verifyDfe({ nfce: row.transmitted_xml }).ok, 'the offline note passes the official XSD and xmlsec1');
  const atAuthority = await stack.knex('simulator.notes').where({ access_key: d.accessKey }).first();
  t.is(atAuthority, undefined, 'nothing was sent while SP was down');

  // Still down: a scheduler round takes the note, sees SP down, sends nothing and tries later.
  const waiting: any = await stack.nodes[0]!.call('v1.emission.contingencyDue', {});
  t.deepEqual(waiting.outcomes.filter((o: any) => o.id === d.id), [{ id: d.id, status: 'CONTINGENCIA_PENDENTE' }]);
  t.is(await stack.knex('simulator.notes').where({ access_key: d.accessKey }).first(), undefined);

  simulator.faults.clear({ id: fault.id });
  clock.advance(5 * 60_000);
  await checkSp();
  t.like(await spView(), { status: 'up', confirmedDown: false });
  const round: any = await stack.nodes[0]!.call('v1.emission.contingencyDue', {});
  t.deepEqual(round.outcomes.filter((o: any) => o.id === d.id), [{ id: d.id, status: 'AUTHORIZED' }]);
  const got = await stack.request('GET', `/v1/nfce/${d.id}`, { headers });
  t.like(got.body.data, { status: 'AUTHORIZED', accessKey: d.accessKey, contingencia: d.contingencia });
  const xml = await stack.request('GET', `/v1/nfce/${d.id}/xml`, { headers });
  t.true(verifyDfe({ nfeProc: xml.text }).ok);
  const hook = await waitFor(async () => receiver.hits.find((h) => h.body?.data?.invoiceId === d.id && h.body.type === 'invoice.authorized'), 'invoice.authorized webhook');
  t.like(hook.body.data, { status: 'AUTHORIZED', accessKey: d.accessKey, emitidaEmContingencia: true });
  t.true(hook.verified);
});
