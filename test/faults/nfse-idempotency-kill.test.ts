import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { startCluster, partnerWithKey, type Cluster } from '../support/cluster.js';
import { companyWithA1 } from '../support/e2e.js';
import { aValidNfseBody, NFSE_ISSUER } from '../support/nfse-factories.js';
import { waitFor } from '../support/webhooks.js';

/**
 * idempotency-kill.test.ts for NFS-e (issue 16, gap 1, on real processes): the Idempotency-Key
 * is bound to its DPS in the numbering transaction, so killing (SIGKILL) the processes serving
 * the first request while Sefin holds the DPS (simulator fault `slow` on SefinNfse) never leads to
 * a second nDPS nor a second NFS-e at Sefin. As there, a death is learnt only through heartbeats,
 * and the dead attempt's 2-minute lease is ended in its row, never waited for.
 */
const SLOW_MS = 8_000;

let cluster: Cluster;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  cluster = await startCluster();
  const partner = await partnerWithKey(cluster);
  headers = { 'x-api-key': partner.apiKey };
  ({ issuerId } = await companyWithA1(cluster, headers, NFSE_ISSUER));
});
test.after.always(async () => { await cluster?.stop(); });

interface Answer { status: number; headers: Headers; text: string; body: any }

async function post(key: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${cluster.url}/v1/nfse`, { method: 'POST', headers: { ...headers, 'idempotency-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  let parsed: any;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = text; }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** The whole 503 envelope; `details` names the DPS only when the gateway's lookup reached a live emission node. */
function unavailable(r: Answer, nfseId: string): Record<string, unknown> {
  const details = r.body?.error?.details;
  return {
    error: {
      type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail: 'Serviço temporariamente indisponível.',
      ...(details !== undefined ? { details: { nfseId, status: details.status } } : {}),
      instance: '/v1/nfse', requestId: r.headers.get('x-request-id'), timestamp: r.body?.error?.timestamp,
    },
  };
}

/**
 * The first answer that is not a 503: until the gateway noticed both killed nodes (a heartbeat
 * check, up to 30 s apart), a retry routed to one it still counts is refused 503 as the first
 * request was. Each such refusal must still be the whole catalogued envelope.
 */
async function answered(key: string, body: unknown, nfseId: string): Promise<Answer> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const r = await post(key, body);
    if (r.status !== 503) return r;
    const status = r.body?.error?.details?.status;
    const ok = isDeepStrictEqual(r.body, unavailable(r, nfseId)) && !Number.isNaN(Date.parse(r.body.error.timestamp))
      && r.headers.get('retry-after') === '5' && (status === undefined || typeof status === 'string');
    if (!ok) throw new Error(`unexpected 503: ${r.text}`);
    if (Date.now() > deadline) throw new Error(`still 503 after 90 s: ${r.text}`);
    await new Promise((res) => setTimeout(res, 1_000));
  }
}

const dpsOf = (key: string) => cluster.knex('emission.nfse_documents').where({ idempotency_key: key }).select('id', 'n_dps', 'id_dps', 'status');

/**
 * Exactly one DPS under the key, AUTHORIZED; the issuer's nDPS 1..n without a gap and the sequence
 * right after them; one NFS-e at Sefin for the idDps; one invoice.authorized.
 */
async function assertExactlyOnce(t: ExecutionContext, key: string, dps: { id: string; n_dps: number | string; id_dps: string }, chaveAcesso: string): Promise<void> {
  t.deepEqual((await dpsOf(key)).map((d: any) => [d.id, Number(d.n_dps), d.id_dps, d.status]), [[dps.id, Number(dps.n_dps), dps.id_dps, 'AUTHORIZED']]);
  const numbers = (await cluster.knex('emission.nfse_documents').where({ issuer_id: issuerId }).orderBy('n_dps').select('n_dps')).map((r: any) => Number(r.n_dps));
  t.deepEqual(numbers, numbers.map((_: number, i: number) => i + 1), 'nDPS gap-free');
  const seq = await cluster.knex('emission.nfse_sequences').where({ issuer_id: issuerId, serie: 1, environment: 2 }).first();
  t.is(Number(seq.next_number), numbers.length + 1, 'no further DPS number used');
  const atSefin = await cluster.knex('simulator.sefin_nfse').where({ id_dps: dps.id_dps }).select('chave_acesso', 'status');
  t.deepEqual(atSefin, [{ chave_acesso: chaveAcesso, status: 'gerada' }], 'one NFS-e at Sefin for the idDps');
  const authorized = (await cluster.knex('emission.outbox').select('payload'))
    .map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
    .filter((p: any) => p.type === 'invoice.authorized' && p.data?.nfseId === dps.id);
  t.is(authorized.length, 1, 'one invoice.authorized');
}

/** The DPS once TRANSMITTING and Sefin holds it: the `slow` fault (times 1) leaves the list when taken. */
async function inFlight(key: string) {
  const dps = await waitFor(async () => {
    const rows = await dpsOf(key);
    return rows[0]?.status === 'TRANSMITTING' ? rows[0] : undefined;
  }, 'the DPS in flight', 60_000);
  await waitFor(async () => (await cluster.faults()).length === 0, 'Sefin holding the DPS', 30_000);
  return dps;
}

test.serial('both emission processes killed (SIGKILL) while the DPS is TRANSMITTING: 503, then the retry with the same key answers the same DPS, one NFS-e at Sefin', async (t) => {
  const key = `dps-${randomUUID()}`;
  const body = aValidNfseBody({ issuerId });
  await cluster.addFault({ mode: 'slow', service: 'SefinNfse', delayMs: SLOW_MS, times: 1 });
  const startedAt = Date.now();
  const first = post(key, body);
  const dps = await inFlight(key);
  await Promise.all([cluster.kill('emission-1'), cluster.kill('emission-2')]);
  await Promise.all([cluster.start('emission-1'), cluster.start('emission-2')]);

  const lost = await first;
  t.is(lost.status, 503, lost.text);
  t.is(lost.headers.get('retry-after'), '5');
  const at = Date.parse(lost.body?.error?.timestamp);
  t.true(at >= startedAt - 1_000 && at <= Date.now() + 1_000, lost.text);
  t.deepEqual(lost.body, unavailable(lost, dps.id));
  if (lost.body.error.details) t.is(lost.body.error.details.status, 'TRANSMITTING');
  await cluster.clearFaults();
  // Sefin finished the slow processing and generated the NFS-e; its answer went to a dead caller.
  const generated = await waitFor(() => cluster.knex('simulator.sefin_nfse').where({ id_dps: dps.id_dps }).first(), 'Sefin generated the NFS-e', 30_000);

  // The dead attempt's lease is alive: the retry answers the same DPS as it is.
  const during = await answered(key, body, dps.id);
  t.is(during.status, 201, during.text);
  t.like(during.body.data, { id: dps.id, nDPS: Number(dps.n_dps), idDps: dps.id_dps, status: 'TRANSMITTING', chaveAcesso: null });

  // Its lease ended: the retry consults Sefin by idDps and settles on the NFS-e already there.
  await cluster.knex('emission.nfse_documents').where({ id: dps.id }).update({ transmitting_until: cluster.knex.raw(`now() - interval '1 second'`) });
  const settled = await answered(key, body, dps.id);
  t.is(settled.status, 201, settled.text);
  t.like(settled.body.data, { id: dps.id, nDPS: Number(dps.n_dps), idDps: dps.id_dps, status: 'AUTHORIZED', chaveAcesso: generated.chave_acesso, numero: generated.n_nfse });
  const replay = await post(key, body);
  t.is(replay.status, 201, replay.text);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body.data, settled.body.data);
  await assertExactlyOnce(t, key, dps, generated.chave_acesso);
});

test.serial('the gateway process killed (SIGKILL) while the DPS is TRANSMITTING: the connection drops, and the retry through the restarted gateway answers the same DPS, AUTHORIZED once', async (t) => {
  const key = `dps-${randomUUID()}`;
  const body = aValidNfseBody({ issuerId });
  await cluster.addFault({ mode: 'slow', service: 'SefinNfse', delayMs: SLOW_MS, times: 1 });
  const first = post(key, body).catch((err: Error) => err);
  const dps = await inFlight(key);
  await cluster.kill('gateway');
  const lost = await first;
  t.true(lost instanceof Error, `the connection should have dropped, got ${JSON.stringify(lost)}`);
  await cluster.start('gateway');
  await cluster.clearFaults();

  // The gateway's record of the key says "processing" (its owner died): the retry reaches the
  // emission, which answers the DPS as it is until the emission that outlived the gateway ends it.
  const settled = await waitFor(async () => {
    const r = await post(key, body);
    if (r.status !== 201 || r.body?.data?.id !== dps.id || r.body.data.nDPS !== Number(dps.n_dps) || r.body.data.idDps !== dps.id_dps) throw new Error(`unexpected answer to the retry: ${r.status} ${r.text}`);
    return r.body.data.status === 'AUTHORIZED' ? r : undefined;
  }, 'the retry answering AUTHORIZED', 60_000);
  const generated = await cluster.knex('simulator.sefin_nfse').where({ id_dps: dps.id_dps }).first();
  t.like(settled.body.data, { id: dps.id, nDPS: Number(dps.n_dps), idDps: dps.id_dps, status: 'AUTHORIZED', chaveAcesso: generated.chave_acesso, numero: generated.n_nfse });
  const replay = await post(key, body);
  t.is(replay.status, 201, replay.text);
  t.deepEqual(replay.body.data, settled.body.data);
  await assertExactlyOnce(t, key, dps, generated.chave_acesso);
});
