import test from 'ava';
import { startSefazStack, createA1, type SefazStack } from '../support/sefaz-stack.js';
import { sampleNfe } from '../support/sample-nfe.js';
import { createCa } from '../support/certificates.js';
import type { SefazClient } from '../../services/sefaz/client.js';

/**
 * Issue 20, defect 2: a burst of one issuer waits for its own connections instead of failing, and
 * another issuer of the same UF keeps getting the authority's answers meanwhile. Four connections
 * per certificate and a slow authority (150 ms per authorization, plus the simulator's own checks)
 * make the burst queue for many seconds, beyond the connect timeout (3 s, generous because the
 * simulator shares this process's event loop): waiting for a connection is not a connect failure,
 * and nothing of the burst reaches the UF's breaker (threshold 3).
 */
const ISSUER_A = { id: 'iss-burst', cnpj: '12345678000195' };
const ISSUER_B = { id: 'iss-steady', cnpj: '98765432000198' };
const BURST = 100;
let s: SefazStack;
let a1A: ReturnType<typeof createA1>;
let a1B: ReturnType<typeof createA1>;

test.before(async () => {
  // The queue bound is generous: on a loaded machine the simulator's checks make the burst last long.
  s = await startSefazStack({ SEFAZ_MAX_SOCKETS: '4', SEFAZ_CONNECT_TIMEOUT_MS: '3000', SEFAZ_QUEUE_TIMEOUT_MS: '50000', SEFAZ_BREAKER_THRESHOLD: '3' });
  a1A = createA1(s.ca, { cnpj: ISSUER_A.cnpj });
  a1B = createA1(s.ca, { cnpj: ISSUER_B.cnpj });
  s.addIssuer(ISSUER_A.id, a1A);
  s.addIssuer(ISSUER_B.id, a1B);
});
test.after.always(async () => { await s?.stack.stop(); });

const authorize = (issuerId: string, n: { xml: string; accessKey: string }) =>
  s.call('v1.sefaz.authorize', { uf: 'SP', model: '55', ambiente: 2, issuerId, signedNfeXml: n.xml, accessKey: n.accessKey });
const tally = (results: any[]) => results.reduce<Record<string, number>>((acc, r) => {
  const k = r.kind === 'authorized' ? 'authorized' : `${r.kind}: ${r.reason ?? r.cStat} ${r.detail ?? r.xMotivo ?? ''}`.slice(0, 120);
  acc[k] = (acc[k] ?? 0) + 1;
  return acc;
}, {});

test.serial(`a burst of ${BURST} notes of one issuer is all authorized, and another issuer of the UF gets only authorizations meanwhile`, async (t) => {
  await s.fault({ mode: 'slow', uf: 'SP', service: 'NFeAutorizacao4', delayMs: 150 });
  const client = (s.stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).client as SefazClient;
  // The stand-in issuer service's material for A, to read its lane of the bulkhead.
  const identityA = { issuerId: ISSUER_A.id, fingerprint: a1A.certPem.slice(-60, -30), keyPem: a1A.keyPem, certPem: a1A.certPem, chainPem: [], notAfter: '2099-01-01' };
  let maxWaiting = 0;
  const sampler = setInterval(() => { maxWaiting = Math.max(maxWaiting, client.transport.load(identityA, { id: 'simulator', ca: undefined }).waiting); }, 10);

  const burstNotes = Array.from({ length: BURST }, (_, i) => sampleNfe({ cnpj: ISSUER_A.cnpj, keyPem: a1A.keyPem, certPem: a1A.certPem, numero: i + 1 }));
  let burstDone = false;
  const burst = Promise.all(burstNotes.map((n) => authorize(ISSUER_A.id, n))).finally(() => { burstDone = true; });
  const steady: any[] = [];
  for (let numero = 1; !burstDone || steady.length < 3; numero++) {
    steady.push(await authorize(ISSUER_B.id, sampleNfe({ cnpj: ISSUER_B.cnpj, keyPem: a1B.keyPem, certPem: a1B.certPem, numero })));
    await new Promise((r) => setTimeout(r, 50));
  }
  const burstResults = await burst;
  clearInterval(sampler);

  t.deepEqual(tally(burstResults), { authorized: BURST });
  t.deepEqual(tally(steady), { authorized: steady.length });
  t.true(maxWaiting > 0, 'the burst did queue for its connections');
  t.is(client.breaker.state('SP|55|2', Date.now()), 'closed');
});

test.serial("one issuer's certificate refused by the authority, again and again, never opens the UF's circuit for the others", async (t) => {
  const rogue = createA1(createCa('AC Desconhecida'), { cnpj: ISSUER_A.cnpj });
  s.addIssuer('iss-rogue', rogue);
  const client = (s.stack.nodes[0]!.getLocalService({ name: 'sefaz', version: 1 }) as any).client as SefazClient;
  for (let numero = 1_000; numero < 1_006; numero++) {
    const r = await authorize('iss-rogue', sampleNfe({ cnpj: ISSUER_A.cnpj, keyPem: rogue.keyPem, certPem: rogue.certPem, numero }));
    t.like(r, { kind: 'failed', reason: 'tls' });
  }
  t.is(client.breaker.state('SP|55|2', Date.now()), 'closed', 'six refusals, threshold 3: still closed');
  t.like(await authorize(ISSUER_B.id, sampleNfe({ cnpj: ISSUER_B.cnpj, keyPem: a1B.keyPem, certPem: a1B.certPem, numero: 1_000 })), { kind: 'authorized', cStat: 100 });
});
