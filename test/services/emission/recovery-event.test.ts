import test from 'ava';
import type { Stack } from '../../support/stack.js';
import { EmissionWorld, aFakePartner as partner, aSmallNote as nota, startEmissionStack } from '../../support/emission-world.js';
import { fakePipeline } from '../../support/fake-pipeline.js';
import { bindPipeline } from '../../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { AUTHORITY_EVENTS } from '../../../services/shared/authority-events.js';

bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;

test.before(async () => {
  stack = await startEmissionStack(world, clock);
});
test.after.always(async () => { await stack?.stop(); });

// The event handler's `this` is the bare Service to Moleculer (emissionService() casts it): this
// drives it end to end, so a wrong cast or a lost await shows here, not in production.
test.serial('emission, on sefaz.authority.recovered: the notes of that authority that failed before sending are retransmitted at once, same key', async (t) => {
  const p = partner();
  world.addIssuer(p.partnerId);
  world.authorizeMode = 'fail-before-send';
  const res = await stack.request('POST', '/v1/nfe', { body: nota(), headers: p.headers });
  t.like(res.body.data, { status: 'ERROR', protocol: null });
  const row = await stack.knex('emission.documents').where({ id: res.body.data.id }).first('uf', 'environment');
  world.authorizeMode = 'authorize';

  // Another authority's recovery leaves the note alone.
  await stack.nodes[0]!.broadcast(AUTHORITY_EVENTS.recovered, { uf: row.uf === 'SP' ? 'RJ' : 'SP', ambiente: row.environment });
  t.like(await stack.knex('emission.documents').where({ id: res.body.data.id }).first('status'), { status: 'ERROR' });

  await stack.nodes[0]!.broadcast(AUTHORITY_EVENTS.recovered, { uf: row.uf, ambiente: row.environment, model: '55' });
  t.like(await stack.knex('emission.documents').where({ id: res.body.data.id }).first('status'), { status: 'AUTHORIZED' });
  const sent = world.authorizeCalls.filter((c) => c.accessKey === res.body.data.accessKey);
  t.is(sent.length, 2);
  t.is(sent[0]!.signedNfeXml, sent[1]!.signedNfeXml);
});
