import test, { type ExecutionContext } from 'ava';
import { startCluster, partnerWithKey, type Cluster } from '../support/cluster.js';
import { companyWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { aValidNfceBody } from '../support/nfe-factories.js';
import { postAs } from '../support/fault-answers.js';
import { waitFor } from '../support/webhooks.js';

/**
 * Issue 20, defect 4, on the real multi-process layout: the authority answers an NFC-e later than
 * the client's read timeout (simulator fault `slow`, once) and commits its first key K1 after the
 * emission node gave up. The note ends AUTHORIZED under K1 with the authority's protocol, the
 * partner is never told REJECTED, and the authority holds one key for the number.
 *
 * The authority's 2-minute processing window (lib/emission/contingency.ts) is not waited for: the
 * test ends it by moving the note's hold, its next consult and its attempt's lease to the past, as
 * the idempotency test ends a lease; each emission node's own reconciliation timer (every 15 s) then
 * consults, and its contingency timer (every minute) sends.
 */
const READ_TIMEOUT_MS = 4_000;
let cluster: Cluster;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  cluster = await startCluster(
    { SEFAZ_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS) },
    {
      roleEnv: {
        // The monitor runs on the core so that, in the second test, SP's status can read "down" (fault on the status service only).
        core: { MONITOR_ENABLED: '1', MONITOR_INTERVAL_MS: '3000', MONITOR_TICK_MS: '500' },
        // NODE_ENV=test turns the emission's reconciliation and contingency timers off (in-process tests drive
        // rounds with a manual clock); here they run as in production. Secrets and URLs are explicit either way.
        'emission-1': { NODE_ENV: 'development' }, 'emission-2': { NODE_ENV: 'development' },
      },
    },
  );
  const partner = await partnerWithKey(cluster);
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(cluster, headers, SANDBOX_CSC));
});
test.after.always(async () => { await cluster?.stop(); });

const spStatus = async () => (await cluster.request('GET', '/v1/sefaz/status?uf=SP&ambiente=homologacao', { headers })).body?.data?.[0]?.status;

/** One NFC-e sent while the authority takes `delayMs` (beyond the read timeout): 503 naming the note and K1. */
async function lateNote(t: ExecutionContext, delayMs: number): Promise<{ id: string; k1: string }> {
  await cluster.addFault({ mode: 'slow', service: 'NFeAutorizacao4', delayMs, times: 1 });
  const res = await postAs(cluster, headers, '/v1/nfce', aValidNfceBody());
  t.is(res.status, 503, res.text);
  const { invoiceId, accessKey } = res.body?.error?.details ?? {};
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/CONTINGENCIA_SITUACAO_INDETERMINADA', title: 'Service Unavailable', status: 503,
      detail: 'Situação da nota indeterminada; o resultado chegará por webhook.',
      details: { invoiceId, accessKey, status: 'TRANSMITTING' },
      instance: '/v1/nfce', requestId: res.headers.get('x-request-id'), timestamp: res.body?.error?.timestamp,
    },
  });
  t.is(accessKey[34], '1', 'still the normal key: no receipt under another key');
  const doc = await cluster.knex('emission.documents').where({ id: invoiceId }).first('access_key', 'status');
  t.deepEqual(doc, { access_key: accessKey, status: 'TRANSMITTING' });
  return { id: invoiceId, k1: accessKey };
}

/** The authority's processing window ends now for this note: its held re-key, its next consult and its attempt's lease are due. */
async function endWindow(id: string): Promise<void> {
  const past = cluster.knex.raw(`now() - interval '1 second'`);
  const holds = await cluster.knex('emission.contingency_holds').where({ document_id: id }).update({ rekey_after: past });
  if (holds !== 1) throw new Error(`expected the note's held re-key, found ${holds}`);
  // The attempt's lease (transmitting_until) is as long as the window: it ends with it.
  await cluster.knex('emission.documents').where({ id }).update({ next_check_at: past, transmitting_until: past });
}

const committed = (key: string, timeoutMs: number) => waitFor(() => cluster.knex('simulator.notes').where({ access_key: key }).first(), `the authority committing ${key}`, timeoutMs);

async function settled(id: string): Promise<any> {
  return waitFor(async () => {
    const res = await cluster.request('GET', `/v1/nfce/${id}`, { headers });
    if (res.status !== 200) throw new Error(`read: ${res.status} ${res.text}`);
    if (res.body.data.status === 'REJECTED') throw new Error(`told REJECTED: ${res.text}`);
    return res.body.data.status === 'AUTHORIZED' ? res.body.data : null;
  }, `note ${id} AUTHORIZED`, 120_000);
}

/** The note's outbox events, its history never REJECTED, and the authority holding only K1 for its number. */
async function assertOneKey(t: ExecutionContext, id: string, k1: string, events: string[]): Promise<void> {
  const history = await cluster.knex('emission.document_history').where({ document_id: id }).orderBy('id').pluck('to_status');
  t.false(history.includes('REJECTED'), history.join(' → '));
  // The access key's fields (MOC 4.00, 5.4): CNPJ at 7-20, model 21-22, series 23-25, number 26-34.
  const atAuthority = await cluster.knex('simulator.notes')
    .where({ cnpj: k1.slice(6, 20), model: k1.slice(20, 22), serie: Number(k1.slice(22, 25)), numero: Number(k1.slice(25, 34)) }).select('access_key');
  t.deepEqual(atAuthority.map((r: any) => r.access_key), [k1], 'the authority holds K1 alone');
  const outbox = (await cluster.knex('emission.outbox').orderBy('created_at').select('payload')).map((r: any) => r.payload).filter((p: any) => p.data?.invoiceId === id);
  t.deepEqual(outbox.map((p: any) => p.type), events);
}

test.serial('the answer comes after the read timeout, once: after the window the consult finds K1 → AUTHORIZED with its protocol, one invoice.authorized', async (t) => {
  const { id, k1 } = await lateNote(t, 2 * READ_TIMEOUT_MS);
  const atAuthority = await committed(k1, 30_000);
  await endWindow(id);
  const doc = await settled(id);
  t.like(doc, { status: 'AUTHORIZED', accessKey: k1, protocol: atAuthority.protocol });
  t.is(doc.contingencia, undefined);
  await assertOneKey(t, id, k1, ['invoice.authorized']);
});

test.serial('the authority still processing when the window ends: re-keyed to contingency (K2), then the 539 naming K1 adopts K1 → AUTHORIZED with its protocol, never REJECTED', async (t) => {
  // Long enough that the re-key's consult (at most a reconciliation round after the window ends) comes before K1 is committed.
  const { id, k1 } = await lateNote(t, 45_000);
  // SP's status reads "down" meanwhile, so the contingency round keeps K2 until the authority committed K1:
  // the order of the reproduction, without racing the round's timer.
  await cluster.addFault({ mode: 'down', uf: 'SP', service: 'NFeStatusServico4' });
  await waitFor(async () => (await spStatus()) === 'down', 'the monitor to see SP down', 60_000);
  await endWindow(id);
  const rekeyed = await waitFor(async () => {
    const row = await cluster.knex('emission.documents').where({ id }).first('status', 'access_key');
    if (row.status === 'AUTHORIZED') throw new Error('settled before the re-key: the authority answered within the reconciliation round');
    return row.status === 'CONTINGENCIA_PENDENTE' ? row : null;
  }, 'the held re-key', 60_000);
  const k2 = rekeyed.access_key as string;
  t.is(k2[34], '9');
  t.is(k2.slice(0, 34), k1.slice(0, 34), 'same number');

  const atAuthority = await committed(k1, 90_000);
  await cluster.clearFaults();
  await waitFor(async () => (await spStatus()) === 'up', 'the monitor to see SP up', 60_000);
  // The next contingency round (every minute on each emission node) sends K2 now.
  await cluster.knex('emission.documents').where({ id }).update({ contingency_next_try_at: cluster.knex.raw(`now() - interval '1 second'`) });
  const doc = await settled(id);
  t.like(doc, { status: 'AUTHORIZED', accessKey: k1, protocol: atAuthority.protocol });
  const xml = await cluster.request('GET', `/v1/nfce/${id}/xml`, { headers });
  t.true(xml.text.includes(`Id="NFe${k1}"`), 'the stored nfeProc is K1');
  await assertOneKey(t, id, k1, ['invoice.contingency', 'invoice.authorized']);
  t.is((await cluster.knex('emission.documents').where({ issuer_id: issuerId, model: '65' })).length, 2, 'no other document');
});
