import test from 'ava';
import { startCluster, partnerWithKey, type Cluster } from '../support/cluster.js';
import { companyWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';

/**
 * Issue 20, defect 2, on the real multi-process layout (test/support/cluster.ts): a burst of NF-e
 * of one partner's issuer, spread by the gateway over two emission processes and queued on the
 * core's per-issuer connections to a slow authority, while another partner of the same UF emits
 * one note a second. Every note of both partners answers 201 AUTHORIZED (a burst waits, it never
 * fails nor opens the UF's circuit for the other tenant), numbers without a gap, and one
 * invoice.authorized each.
 */
/** The size (300); FAULTS_BURST lowers it where a CI machine cannot afford it. */
const BURST = Number(process.env.FAULTS_BURST ?? 300);
let cluster: Cluster;

test.before(async () => {
  // A shared, loaded 2-core machine numbers slowly; the numbering bound is not what this test is about.
  cluster = await startCluster({ EMISSION_NUMBERING_TIMEOUT_MS: '60000' });
});
test.after.always(async () => { await cluster?.stop(); });

/** The burst partner is Enterprise with a dedicated limit above the burst (API.md, Limits): every note is within its plan. */
async function integrator(rateLimit?: number): Promise<{ headers: Record<string, string>; issuerId: string }> {
  const { apiKey } = await (rateLimit ? partnerWithKey(cluster, 'ENTERPRISE', rateLimit) : partnerWithKey(cluster));
  const headers = { 'x-api-key': apiKey };
  const { issuerId } = await companyWithA1(cluster, headers);
  return { headers, issuerId };
}

const emit = (p: { headers: Record<string, string> }) => cluster.request('POST', '/v1/nfe', { headers: p.headers, body: aValidNfeBody() });
const tally = (answers: { status: number; body: any }[]) => answers.reduce<Record<string, number>>((acc, r) => {
  const k = `${r.status} ${r.body?.data?.status ?? r.body?.error?.type}`;
  acc[k] = (acc[k] ?? 0) + 1;
  return acc;
}, {});

test.serial(`${BURST} NF-e at once from one partner while another emits one a second: every answer of both is 201 AUTHORIZED`, async (t) => {
  const [burstPartner, steadyPartner] = [await integrator(2 * BURST), await integrator()];
  await cluster.addFault({ mode: 'slow', uf: 'SP', service: 'NFeAutorizacao4', delayMs: 500 });
  let burstDone = false;
  const burst = Promise.all(Array.from({ length: BURST }, () => emit(burstPartner))).finally(() => { burstDone = true; });
  const steady: { status: number; body: any }[] = [];
  while (!burstDone || steady.length < 3) {
    steady.push(await emit(steadyPartner));
    await new Promise((r) => setTimeout(r, 1_000)); // the steady tenant: one note a second
  }
  await cluster.clearFaults();
  t.deepEqual(tally(await burst), { '201 AUTHORIZED': BURST });
  t.deepEqual(tally(steady), { '201 AUTHORIZED': steady.length });

  for (const [partner, count] of [[burstPartner, BURST], [steadyPartner, steady.length]] as const) {
    const docs = await cluster.knex('emission.documents').where({ issuer_id: partner.issuerId }).select('id', 'number');
    t.deepEqual(docs.map((d: any) => Number(d.number)).sort((a, b) => a - b), Array.from({ length: count }, (_, i) => i + 1), 'no gap, no duplicate');
    const ids = new Set(docs.map((d: any) => d.id));
    const authorized = (await cluster.knex('emission.outbox').select('payload')).filter((r: any) => r.payload.type === 'invoice.authorized' && ids.has(r.payload.data.invoiceId));
    t.is(authorized.length, count, 'one invoice.authorized per note');
    t.is(new Set(authorized.map((r: any) => r.payload.data.invoiceId)).size, count);
  }
});
