import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1 } from '../support/e2e.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';

/**
 * Issue 20, defect 2, over HTTP with every service real: a burst of NF-e of one partner's issuer
 * while another partner of the same UF emits one note at a time. With a slow authority (500 ms per
 * authorization) and 8 connections per certificate, the burst queues for its connections far longer
 * than the connect timeout (3 s, generous because the simulator shares this process's event loop);
 * every note of both partners must still answer 201 AUTHORIZED.
 */
const BURST = 200;
let stack: Stack;
let simulator: SefazSimulator;
let burstPartner: Awaited<ReturnType<typeof integratorWithA1>>;
let steadyPartner: Awaited<ReturnType<typeof integratorWithA1>>;

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '0', SEFAZ_MAX_SOCKETS: '8', SEFAZ_CONNECT_TIMEOUT_MS: '3000',
    // A shared, loaded test machine numbers slowly; the bound is not what this test is about.
    EMISSION_NUMBERING_TIMEOUT_MS: '60000' } });
  simulator = (stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator;
  burstPartner = await integratorWithA1(stack);
  steadyPartner = await integratorWithA1(stack);
  // The burst is the partner's right (its plan's rate limit is not what this test is about).
  await stack.nodes[0]!.call('v1.auth.setPlan', { partnerId: burstPartner.partner.partnerId, plan: 'ENTERPRISE', enterpriseRateLimit: 5_000 });
});
test.after.always(async () => { await stack?.stop(); });

const emit = (p: { headers: Record<string, string> }) => stack.request('POST', '/v1/nfe', { headers: p.headers, body: aValidNfeBody() });
const tally = (answers: { status: number; body: any }[]) => answers.reduce<Record<string, number>>((acc, r) => {
  const k = `${r.status} ${r.body?.data?.status ?? r.body?.error?.type}`;
  acc[k] = (acc[k] ?? 0) + 1;
  return acc;
}, {});

test.serial(`${BURST} NF-e at once from one partner and one at a time from another: every answer is 201 AUTHORIZED`, async (t) => {
  simulator.faults.add({ mode: 'slow', uf: 'SP', service: 'NFeAutorizacao4', delayMs: 500 });
  let burstDone = false;
  const burst = Promise.all(Array.from({ length: BURST }, () => emit(burstPartner))).finally(() => { burstDone = true; });
  const steady: { status: number; body: any }[] = [];
  while (!burstDone || steady.length < 3) {
    steady.push(await emit(steadyPartner));
    await new Promise((r) => setTimeout(r, 100));
  }
  t.deepEqual(tally(await burst), { '201 AUTHORIZED': BURST });
  t.deepEqual(tally(steady), { '201 AUTHORIZED': steady.length });
  const numbers = await stack.knex('emission.documents').where({ issuer_id: burstPartner.issuerId }).pluck('number');
  t.deepEqual([...numbers].map(Number).sort((a, b) => a - b), Array.from({ length: BURST }, (_, i) => i + 1), 'no gap, no duplicate');
});
