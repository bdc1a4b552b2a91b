import test from 'ava';
import type { Stack } from '../../support/stack.js';
import { EmissionWorld, aFakePartner, aSmallNote, startEmissionStack } from '../../support/emission-world.js';
import { fakeCallerKey } from '../../support/fake-auth.js';
import { fakePipeline } from '../../support/fake-pipeline.js';
import { bindPipeline } from '../../../services/emission/pipeline-binding.js';
import { ManualClock } from '../../../services/shared/clock.js';

/**
 * API.md, API key rule 3: an ek_test_ key operates only issuers in homologation or marked sandbox.
 * It reads what was emitted in homologation; a note emitted in production (tpAmb 1) by an issuer
 * that is not sandbox answers 403 CHAVE_TESTE_EMISSOR_PRODUCAO on every read route (the note, its
 * XML, its DANFE, its events) and is not listed; a live key of the same partner reads it.
 */
bindPipeline(fakePipeline);
const world = new EmissionWorld();
const clock = new ManualClock('2026-11-22T15:00:00.000Z');
let stack: Stack;

test.before(async () => { stack = await startEmissionStack(world, clock); });
test.after.always(async () => { await stack?.stop(); });

const forbidden = (res: any) => ({
  error: {
    type: 'https://errors.test/CHAVE_TESTE_EMISSOR_PRODUCAO', title: 'Forbidden', status: 403,
    detail: 'Chave ek_test_ só opera emissores em homologação ou sandbox.', instance: res.body?.error?.instance,
    requestId: res.headers.get('x-request-id'), timestamp: '2026-11-22T15:00:00.000Z',
  },
});

test('an ek_test_ key reads homologation notes only: a production note of an issuer that is not sandbox is 403 and unlisted', async (t) => {
  const live = aFakePartner('live');
  const test_ = { 'x-api-key': fakeCallerKey({ partnerId: live.partnerId, keyKind: 'test', rateLimit: 100_000 }) };
  const homologation = world.addIssuer(live.partnerId);
  const production = world.addIssuer(live.partnerId, { ambienteFiscal: 1 });
  const sandbox = world.addIssuer(live.partnerId, { ambienteFiscal: 1, sandbox: true });
  const emit = async (issuerId: string) => {
    const res = await stack.request('POST', '/v1/nfe', { body: aSmallNote({ issuerId }), headers: live.headers });
    t.is(res.status, 201, res.text);
    return res.body.data.id as string;
  };
  const [h, p, s] = [await emit(homologation.id), await emit(production.id), await emit(sandbox.id)];

  for (const path of [`/v1/nfe/${p}`, `/v1/nfe/${p}/xml`, `/v1/nfe/${p}/danfe.html`, `/v1/nfe/${p}/eventos`]) {
    const res = await stack.request('GET', path, { headers: test_ });
    t.deepEqual({ status: res.status, body: res.body }, { status: 403, body: forbidden(res) }, path);
    t.is(res.body.error.instance, path);
    // The fake world has no issuer logo to print with, so the DANFE's control read is the note's.
    if (!path.endsWith('.html')) t.is((await stack.request('GET', path, { headers: live.headers })).status, 200, `live key: ${path}`);
  }
  for (const id of [h, s]) t.is((await stack.request('GET', `/v1/nfe/${id}`, { headers: test_ })).status, 200);

  const listed = async (headers: Record<string, string>, query = '') =>
    ((await stack.request('GET', `/v1/nfe${query}`, { headers })).body.data.items as { id: string }[]).map((d) => d.id).sort();
  t.deepEqual(await listed(test_), [h].sort(), 'without issuerId a test key lists homologation notes');
  t.deepEqual(await listed(live.headers), [h, p, s].sort());
  t.deepEqual(await listed(test_, `?issuerId=${sandbox.id}`), [s], 'naming a sandbox issuer lists its notes');
  const named = await stack.request('GET', `/v1/nfe?issuerId=${production.id}`, { headers: test_ });
  t.deepEqual({ status: named.status, body: named.body }, { status: 403, body: forbidden(named) });

  // Its issuer back in homologation, a production note is still one: 403.
  world.issuers.get(production.id)!.snapshot.ambienteFiscal = 2;
  const after = await stack.request('GET', `/v1/nfe/${p}`, { headers: test_ });
  t.deepEqual({ status: after.status, body: after.body }, { status: 403, body: forbidden(after) });
});
