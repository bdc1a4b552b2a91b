import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { integratorWithA1 } from '../../support/e2e.js';
import { aValidNfseBody, NFSE_ISSUER } from '../../support/nfse-factories.js';
import { aSimplesItem, aValidNfeBody } from '../../support/nfe-factories.js';
import { waitFor } from '../../support/webhooks.js';
import { assertOverloaded } from '../../support/overloaded.js';
import { ManualClock } from '../../../services/shared/clock.js';
import type { Bulkhead } from '../../../services/shared/bulkhead.js';

/**
 * The issuer's documents in flight (EMISSION_IN_FLIGHT_PER_ISSUER, the NF-e case:
 * in-flight-gate.test.ts) for NFS-e: a DPS holds one of its issuer's places from before its nDPS
 * until Sefin answered, the same places as the issuer's NF-e. Here one place and no wait: while a
 * DPS is at a slow Sefin (the simulator's `slow` fault), the issuer's next DPS and NF-e are refused
 * with 503 EMISSOR_SOBRECARREGADO, using no number, and another issuer is served at once.
 */
// Today, not a fixed date: the issuer's A1 is a real certificate valid from a day before it was made.
const clock = new ManualClock(new Date());
let stack: Stack;

test.before(async () => {
  stack = await startStack({ clock, env: { EMISSION_IN_FLIGHT_PER_ISSUER: '1', EMISSION_NUMBERING_MAX_QUEUED: '0' } });
});
test.after.always(async () => { await stack?.stop(); });

test.serial('a DPS at the authority holds its issuer\'s place: its next DPS and NF-e 503 EMISSOR_SOBRECARREGADO before numbering, another issuer served', async (t) => {
  const busy = await integratorWithA1(stack, NFSE_ISSUER);
  const other = await integratorWithA1(stack, NFSE_ISSUER);
  const emit = (who: typeof busy) => stack.request('POST', '/v1/nfse', { headers: who.headers, body: aValidNfseBody({ issuerId: who.issuerId }) });
  const node = stack.nodes[0]!;
  const inFlight = (node.getLocalService('v1.emission') as unknown as { inFlight: Bulkhead }).inFlight;
  const simulator = (node.getLocalService({ name: 'sefaz', version: 1 }) as unknown as { simulator: { adminUrl: string } }).simulator;
  // Long enough for the requests below to reach the place however slow the machine; the test does not wait it out.
  const fault = await fetch(`${simulator.adminUrl}/__admin/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'slow', service: 'SefinNfse', delayMs: 10_000, times: 1 }),
  });
  t.is(fault.status, 201, await fault.text());

  const first = emit(busy);
  await waitFor(async () => inFlight.load(busy.issuerId).active === 1, 'the first DPS to hold its issuer\'s place');
  assertOverloaded(t, await emit(busy), clock, '/v1/nfse', busy.issuerId);
  const item = aSimplesItem();
  const nfe = await stack.request('POST', '/v1/nfe', { headers: busy.headers, body: aValidNfeBody({ items: [item], pagamentos: [{ forma: '01', valor: 100 }] }) });
  assertOverloaded(t, nfe, clock, '/v1/nfe', busy.issuerId);

  const served = await emit(other);
  t.is(served.status, 201, served.text);
  t.like(served.body.data, { status: 'AUTHORIZED', nDPS: 1, issuerId: other.issuerId });

  const done = await first;
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { status: 'AUTHORIZED', nDPS: 1, issuerId: busy.issuerId });
  const seq = await stack.knex('emission.nfse_sequences').where({ issuer_id: busy.issuerId, serie: 1, environment: 2 }).first('next_number');
  t.is(Number(seq.next_number), 2, 'the refused DPS used no nDPS');
  t.is(Number((await stack.knex('emission.documents').where({ issuer_id: busy.issuerId }).count('* as n'))[0]!.n), 0, 'the refused NF-e used no number');
  t.deepEqual(inFlight.load(busy.issuerId), { active: 0, waiting: 0 }, 'the place given back');
});
