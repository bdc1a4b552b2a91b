import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota } from '../../support/emission-world.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { fakePipeline } from '../../support/fake-pipeline.js';
import { waitFor } from '../../support/webhooks.js';
import { assertOverloaded } from '../../support/overloaded.js';
import { bindPipeline } from '../../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../../services/shared/clock.js';

/**
 * Issue 20, defect 2, in emission: an issuer's numbering transactions queue per issuer and node
 * (here: one in flight, none waiting), so a burst never holds the database connections another
 * tenant needs, and a request beyond the bound is refused before numbering (503
 * EMISSOR_SOBRECARREGADO, no number used). The test holds the issuer's sequence row lock itself.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-25T15:00:00.000Z');
let stack: Stack;

test.before(async () => {
  stack = await startStack({
    clock,
    env: { EMISSION_NUMBERING_PER_ISSUER: '1', EMISSION_NUMBERING_MAX_QUEUED: '0' },
    nodes: [{ services: ['api-gateway', 'emission'], extra: [FakeAuthService, world.issuerService(), world.sefazService()] }],
  });
});
test.after.always(async () => { await stack?.stop(); });

test.serial("beyond the issuer's numbering bound: 503 EMISSOR_SOBRECARREGADO before numbering, while another issuer is served at once", async (t) => {
  const busy = partner();
  const issuer = world.addIssuer(busy.partnerId);
  const other = partner();
  world.addIssuer(other.partnerId);
  t.is((await stack.request('POST', '/v1/nfe', { body: nota(), headers: busy.headers })).status, 201);

  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => { locked = r; });
  const lock = stack.knex.transaction(async (trx) => {
    await trx('emission.number_sequences').where({ issuer_id: issuer.id, model: '55', series: 1, environment: 2 }).forUpdate().first();
    locked();
    await held;
  });
  await isLocked;
  const first = stack.request('POST', '/v1/nfe', { body: nota(), headers: busy.headers });
  // The first request holds the issuer's only slot, waiting on the sequence lock.
  await waitFor(async () => Number((await stack.knex.raw('select count(*) as n from pg_locks where not granted')).rows[0].n) > 0, 'the first request to wait on the sequence lock');

  assertOverloaded(t, await stack.request('POST', '/v1/nfe', { body: nota(), headers: busy.headers }), clock, '/v1/nfe', issuer.id);

  const served = await stack.request('POST', '/v1/nfe', { body: nota(), headers: other.headers });
  t.is(served.status, 201, served.text);
  t.like(served.body.data, { status: 'AUTHORIZED', number: 1 });

  release();
  await lock;
  const done = await first;
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { status: 'AUTHORIZED', number: 2 });
  const seq = await stack.knex('emission.number_sequences').where({ issuer_id: issuer.id, model: '55', series: 1, environment: 2 }).first('next_number');
  t.is(Number(seq.next_number), 3, 'the refused request used no number');
  t.is(Number((await stack.knex('emission.documents').where({ issuer_id: issuer.id }).count('* as n'))[0]!.n), 2);
});
