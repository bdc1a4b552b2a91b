import test from 'ava';
import { startCluster, partnerWithKey, type Cluster } from '../support/cluster.js';
import { companyWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { waitFor } from '../support/webhooks.js';

/**
 * Issue 20, defects 3 and 6, on the real multi-process layout, with the availability monitor's own
 * timer running on the core node (a round every few seconds here, 5 minutes in production). SP
 * goes down (simulator fault `down`: NfeStatusServico4 answers 108, every other service HTTP 503)
 * and two NF-e failing before sending open SP's circuit (threshold 2; a third is short-circuited). The monitor's status call is
 * the probe and bypasses that circuit, so it still reads 108 and the next NFC-e is issued in offline
 * contingency instead of a 503. When SP is back, the notes that failed before sending are sent again
 * as soon as the circuit closes, not at their reconciliation slot (moved an hour away here).
 */
const MONITOR_INTERVAL_MS = 4_000;
let cluster: Cluster;
let headers: Record<string, string>;
let issuerId: string;
const failedBeforeSending: string[] = [];

test.before(async () => {
  cluster = await startCluster(
    { SEFAZ_BREAKER_THRESHOLD: '2', SEFAZ_CONSULT_RETRIES: '0', SEFAZ_BREAKER_COOLDOWN_MS: '1500' },
    { roleEnv: { core: { MONITOR_ENABLED: '1', MONITOR_INTERVAL_MS: String(MONITOR_INTERVAL_MS), MONITOR_TICK_MS: '500' } } },
  );
  const partner = await partnerWithKey(cluster);
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(cluster, headers, SANDBOX_CSC));
});
test.after.always(async () => { await cluster?.stop(); });

const sp = async () => {
  const res = await cluster.request('GET', '/v1/sefaz/status?uf=SP&ambiente=homologacao', { headers });
  if (res.status !== 200) throw new Error(`status: ${res.status} ${res.text}`);
  return res.body.data[0];
};

test.serial('SP down with its circuit open: the monitor still reads 108 and the next NFC-e enters offline contingency', async (t) => {
  // The monitor's own timer confirmed SP up before anything else happened.
  await waitFor(async () => (await sp())?.status === 'up', 'the monitor to confirm SP up', 60_000);
  await cluster.addFault({ mode: 'down', uf: 'SP' });

  for (let i = 0; i < 2; i++) {
    const res = await cluster.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
    t.is(res.status, 201, res.text);
    t.is(res.body.data.status, 'ERROR', res.text);
    failedBeforeSending.push(res.body.data.id);
  }
  // The circuit is open: a third note fails at once, short-circuited before the wire.
  const third = await cluster.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(third.status, 201, third.text);
  t.is(third.body.data.status, 'ERROR', third.text);
  failedBeforeSending.push(third.body.data.id);
  const failure = await cluster.knex('emission.document_history').where({ document_id: third.body.data.id, to_status: 'ERROR' }).first('motivo');
  t.regex(failure.motivo, /circuit open for SP\|55\|2/);
  t.deepEqual(await cluster.knex('simulator.notes').whereIn('access_key', (await cluster.knex('emission.documents').whereIn('id', failedBeforeSending).pluck('access_key'))).select('access_key'), [], 'nothing reached the authority');

  const down = await waitFor(async () => { const v = await sp(); return v?.status === 'down' ? v : null; }, 'the monitor to see SP down', 60_000);
  t.like(down, { uf: 'SP', ambiente: 'homologacao', status: 'down', cStat: 108, xMotivo: 'Serviço Paralisado Momentaneamente (curto prazo)' });
  // Later rounds, with the circuit still open, keep it down: the probe is not blinded by the breaker.
  const checkedAt = down.checkedAt;
  const later = await waitFor(async () => { const v = await sp(); return v.checkedAt !== checkedAt ? v : null; }, 'a later monitor round', 60_000);
  t.like(later, { status: 'down', cStat: 108, changedAt: down.changedAt });
  // The blind monitor recorded its own 'circuit-open' failure and kept SP up; this one never met the circuit.
  const row = await cluster.knex('monitor.authority_status').where({ uf: 'SP', ambiente: 'homologacao' }).first('last_failure_reason');
  t.not(row.last_failure_reason, 'circuit-open');

  const nfce = await cluster.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(nfce.status, 201, nfce.text);
  t.like(nfce.body.data, { status: 'CONTINGENCIA_PENDENTE', protocol: null, contingencia: { motivo: 'autorizadora-indisponivel' } });
  t.is(nfce.body.data.accessKey[34], '9', 'tpEmis 9 in the key');
  t.is(await cluster.knex('simulator.notes').where({ access_key: nfce.body.data.accessKey }).first(), undefined, 'nothing was sent');
  const events = (await cluster.knex('monitor.outbox').orderBy('created_at').select('payload')).map((r: any) => r.payload)
    .filter((e: any) => e.type === 'sefaz.status.changed' && e.data.uf === 'SP').map((e: any) => `${e.data.status} ${e.data.cStat}`);
  t.deepEqual(events, ['down 108']);
});

test.serial('SP back: the notes that failed before sending are authorized once the circuit closes, not at their reconciliation slot', async (t) => {
  t.is(failedBeforeSending.length, 3);
  // Their reconciliation would come an hour from now: only the recovery can send them in this test.
  await cluster.knex('emission.documents').whereIn('id', failedBeforeSending).update({ next_check_at: cluster.knex.raw(`now() + interval '1 hour'`) });
  const before = await cluster.knex('emission.documents').whereIn('id', failedBeforeSending).select('id', 'status', 'access_key');
  t.deepEqual(before.map((d: any) => d.status), ['ERROR', 'ERROR', 'ERROR']);
  await cluster.clearFaults();

  for (const { id, access_key: key } of before) {
    const doc = await waitFor(async () => {
      const res = await cluster.request('GET', `/v1/nfe/${id}`, { headers });
      if (res.status !== 200 || !['ERROR', 'TRANSMITTING', 'AUTHORIZED'].includes(res.body.data.status)) throw new Error(`unexpected: ${res.status} ${res.text}`);
      return res.body.data.status === 'AUTHORIZED' ? res.body.data : null;
    }, `note ${id} authorized after recovery`, 60_000);
    t.regex(doc.protocol, /^\d{15}$/);
    t.is(doc.accessKey, key, 'same key: the stored XML was sent again');
  }
  const history = await cluster.knex('emission.document_history').whereIn('document_id', failedBeforeSending).orderBy('id').select('document_id', 'trigger', 'to_status');
  for (const id of failedBeforeSending) {
    t.deepEqual(history.filter((h: any) => h.document_id === id).map((h: any) => `${h.trigger} → ${h.to_status}`), [
      'emission → CREATED', 'emission → TRANSMITTING', 'authorization:failed → ERROR', 'retransmit → TRANSMITTING', 'authorization:authorized → AUTHORIZED',
    ]);
  }
  await waitFor(async () => (await sp()).status === 'up', 'the monitor to see SP up', 60_000);
  const numbers = (await cluster.knex('emission.documents').where({ issuer_id: issuerId, model: '55' }).orderBy('number').pluck('number')).map(Number);
  t.deepEqual(numbers, [1, 2, 3], 'no gap, no duplicate');
  const authorized = (await cluster.knex('emission.outbox').select('payload')).filter((r: any) => r.payload.type === 'invoice.authorized').map((r: any) => r.payload.data.invoiceId);
  t.deepEqual(authorized.sort(), [...failedBeforeSending].sort(), 'one invoice.authorized per note');
});
