import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota } from '../../support/emission-world.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { fakePipeline } from '../../support/fake-pipeline.js';
import { waitFor } from '../../support/webhooks.js';
import { assertOverloaded } from '../../support/overloaded.js';
import { bindPipeline } from '../../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../../services/shared/clock.js';
import type { Bulkhead } from '../../../services/shared/bulkhead.js';

/**
 * An issuer's documents numbered and not yet answered are bounded per node
 * (EMISSION_IN_FLIGHT_PER_ISSUER; here one, and one more may wait): a note beyond them waits before
 * its number is taken, and beyond the wait's bound is refused with 503 EMISSOR_SOBRECARREGADO,
 * with no number used. Before the bound, an overloaded node numbered notes that its certificate's
 * connection queue then refused (`queue-full`: ERROR, left to reconciliation). Another issuer's
 * notes do not wait for this one's.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-25T15:00:00.000Z');
let stack: Stack;

test.before(async () => {
  stack = await startStack({
    clock,
    env: { EMISSION_IN_FLIGHT_PER_ISSUER: '1', EMISSION_NUMBERING_MAX_QUEUED: '1' },
    nodes: [{ services: ['api-gateway', 'emission'], extra: [FakeAuthService, world.issuerService(), world.sefazService()] }],
  });
});
test.after.always(async () => { await stack?.stop(); });

const nextNumber = async (issuerId: string) => Number((await stack.knex('emission.number_sequences')
  .where({ issuer_id: issuerId, model: '55', series: 1, environment: 2 }).first('next_number')).next_number);

test.serial('a note beyond its issuer\'s documents in flight waits before numbering; beyond that wait, 503 EMISSOR_SOBRECARREGADO with no number used', async (t) => {
  const busy = partner();
  const issuer = world.addIssuer(busy.partnerId);
  const other = partner();
  world.addIssuer(other.partnerId);
  const inFlight = (stack.nodes[0]!.getLocalService('v1.emission') as unknown as { inFlight: Bulkhead }).inFlight;

  world.authorizeMode = { hold: 'authorize' };
  const first = stack.request('POST', '/v1/nfe', { body: nota(), headers: busy.headers });
  await world.authorizeCallsReach(1);
  world.authorizeMode = 'authorize';
  t.is(await nextNumber(issuer.id), 2, 'the first note is numbered and at the authority');

  const second = stack.request('POST', '/v1/nfe', { body: nota(), headers: busy.headers });
  await waitFor(async () => inFlight.load(issuer.id).waiting === 1, 'the second note to wait for a place');
  t.is(await nextNumber(issuer.id), 2, 'the waiting note took no number');
  t.is(world.authorizeCalls.length, 1);

  assertOverloaded(t, await stack.request('POST', '/v1/nfe', { body: nota(), headers: busy.headers }), clock, '/v1/nfe', issuer.id);

  // Another issuer's lane is its own: served at once while this one's notes wait.
  const served = await stack.request('POST', '/v1/nfe', { body: nota(), headers: other.headers });
  t.is(served.status, 201, served.text);
  t.like(served.body.data, { status: 'AUTHORIZED', number: 1 });

  world.release();
  const [done, waited] = await Promise.all([first, second]);
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { status: 'AUTHORIZED', number: 1 });
  t.is(waited.status, 201, waited.text);
  t.like(waited.body.data, { status: 'AUTHORIZED', number: 2 });
  t.is(await nextNumber(issuer.id), 3, 'the refused note used no number');
  t.is(Number((await stack.knex('emission.documents').where({ issuer_id: issuer.id }).count('* as n'))[0]!.n), 2);
  t.deepEqual(inFlight.load(issuer.id), { active: 0, waiting: 0 }, 'every place given back');
});

test.serial('a place is given back when the note fails after numbering', async (t) => {
  const p = partner();
  const issuer = world.addIssuer(p.partnerId);
  const inFlight = (stack.nodes[0]!.getLocalService('v1.emission') as unknown as { inFlight: Bulkhead }).inFlight;
  world.authorizeMode = 'fail-before-send';
  const failed = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.is(failed.status, 201, failed.text);
  t.like(failed.body.data, { status: 'ERROR', number: 1 });
  world.authorizeMode = 'authorize';
  const next = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.like(next.body.data, { status: 'AUTHORIZED', number: 2 });
  t.deepEqual(inFlight.load(issuer.id), { active: 0, waiting: 0 });
});
