import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../support/stack.js';
import { aValidNfseBody, NFSE_ISSUER } from '../../support/nfse-factories.js';
import { integratorWithA1 } from '../../support/e2e.js';
import { SefinStandIn, standInStack } from '../../support/sefin-stand-in.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { KeyAlreadyBound } from '../../../services/emission/document-row.js';
import type { NfseStore, NewNfse } from '../../../services/emission/nfse/store.js';

/**
 * services/emission/nfse/store.ts in the NF-e's shape (issue 18): a DPS numbered and committed
 * TRANSMITTING in one transaction, and its terminal answer in one statement guarded by its state
 * and attempt. These are the cases that statement must leave to the locked path, and the numbering's
 * guarantees on both of its paths (direct transaction on Postgres, knex transaction for a série's
 * first DPS and on PGlite).
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
const sefin = new SefinStandIn();
const clock = new ManualClock(new Date());

test.before(async () => {
  ({ stack, headers, issuerId } = await standInStack(sefin, clock));
  // The série's first DPS: its sequence row exists from here on (the direct path's case).
  const first = await stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  if (first.status !== 201) throw new Error(first.text);
});
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => { sefin.submit = { kind: 'authorize' }; sefin.submitGate = null; });

const store = (): NfseStore => (stack.nodes[0]!.getLocalService('v1.emission') as any).nfse;
const historyOf = async (id: string) => (await stack.knex('emission.nfse_history').where({ document_id: id }).orderBy('id'))
  .map((h: any) => [h.from_status, h.to_status, h.trigger, h.motivo, h.detail]);
const eventsOf = async (id: string) => (await stack.knex('emission.outbox').select('payload'))
  .map((r: any) => r.payload).filter((p: any) => p.data?.nfseId === id).map((p: any) => [p.type, p.data.status, p.data.chaveAcesso]);
const billed = async () => Number((await stack.knex('emission.billing_counters').where({ model: 'NFSe' }).sum('count as n'))[0]!.n ?? 0);
const sequence = async (issuer: string, serie = 1) => Number((await stack.knex('emission.nfse_sequences').where({ issuer_id: issuer, serie, environment: 2 }).first())?.next_number ?? 0);

/** A DPS posted while Sefin holds its submission: resolves once it is in flight, with the request's answer to come. */
async function inFlight(): Promise<{ id: string; open: () => void; answer: Promise<{ status: number; body: any; text: string }> }> {
  let open!: () => void;
  sefin.submitGate = new Promise((r) => { open = r; });
  const submits = sefin.count('nfseSubmit');
  const answer = stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) });
  while (sefin.count('nfseSubmit') === submits) await new Promise((r) => setTimeout(r, 10));
  const { idDps } = sefin.calls.at(-1)!.params;
  const { id } = await stack.knex('emission.nfse_documents').where({ id_dps: idDps }).first('id');
  return { id, open, answer };
}

test.serial('the answer to an attempt another one superseded goes to the history only: no state, event or billing of its own', async (t) => {
  const dps = await inFlight();
  const billedBefore = await billed();
  // Its lease expired and another node started attempt 2 (reconciliation: Sefin did not know it yet).
  clock.advance(121_000);
  const second = await store().markTransmitting(dps.id, 'retransmit', 1);
  t.like(second, { kind: 'started', doc: { id: dps.id, status: 'TRANSMITTING', transmissions: 2 } });

  dps.open(); // attempt 1's authorization arrives now: stale, whatever it says
  const res = await dps.answer;
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { id: dps.id, status: 'TRANSMITTING', chaveAcesso: null });
  const row = await stack.knex('emission.nfse_documents').where({ id: dps.id }).first('status', 'transmissions', 'chave_acesso', 'nfse_xml');
  t.deepEqual(row, { status: 'TRANSMITTING', transmissions: 2, chave_acesso: null, nfse_xml: null });
  t.deepEqual((await historyOf(dps.id)).slice(1), [
    ['CREATED', 'TRANSMITTING', 'emission', null, { attempt: 1 }],
    ['TRANSMITTING', 'TRANSMITTING', 'retransmit', null, { attempt: 2 }],
    ['TRANSMITTING', 'TRANSMITTING', 'submit:authorized', 'Resposta da transmissão 1 descartada: a transmissão 2 é a vigente.', { attempt: 1, outcome: 'AUTHORIZED' }],
  ]);
  t.deepEqual(await eventsOf(dps.id), []);
  t.is(await billed(), billedBefore);
});

test.serial('an answer after another node stored the terminal outcome changes nothing: the first outcome stands with exactly one event and one billing count', async (t) => {
  const dps = await inFlight();
  const billedBefore = await billed();
  // Another node (its reconciliation, say) found it authorized at Sefin and stored that first.
  const chaveAcesso = '35503082212345678000195000000000000999261100000000';
  const settled = await store().applyOutcome(dps.id, 1, 'consult:authorized', { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' },
    { chaveAcesso, numeroNfse: '999', nfseXml: '<NFSe/>', authorizedAt: new Date('2026-11-22T20:40:01Z') });
  t.like(settled, { id: dps.id, status: 'AUTHORIZED', chaveAcesso, numeroNfse: '999' });

  // This request's own answer for the same attempt: a rejection, which must not become a second terminal state.
  sefin.submit = { kind: 'reject', erros: [{ codigo: 'E0312', descricao: 'Código de tributação nacional inexistente.' }] };
  dps.open();
  const res = await dps.answer;
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { id: dps.id, status: 'AUTHORIZED', chaveAcesso, numero: '999' });
  t.deepEqual(await eventsOf(dps.id), [['invoice.authorized', 'AUTHORIZED', chaveAcesso]]);
  t.is(await billed(), billedBefore + 1);
  t.deepEqual((await historyOf(dps.id)).slice(2).map((h) => h.slice(0, 3)), [['TRANSMITTING', 'AUTHORIZED', 'consult:authorized']]);
  const row = await stack.knex('emission.nfse_documents').where({ id: dps.id }).first('status', 'chave_acesso', 'erros', 'nfse_xml');
  t.deepEqual(row, { status: 'AUTHORIZED', chave_acesso: chaveAcesso, erros: null, nfse_xml: '<NFSe/>' });
});

/** A DPS as the emission hands it to the store (the service's own fields; the XML is not checked here). */
function newDps(over: Partial<NewNfse> = {}): NewNfse {
  return {
    issuerId: randomUUID(), serie: 1, environment: 2, partnerId: 'p-store', keyKind: 'live', codigoMunicipio: '3550308', amountCents: 150000n,
    requestBody: {}, idempotencyKey: null, idempotencyFingerprint: null, emittedAt: clock.now(), avisos: [], ...over,
  };
}
const built = (nDps: number) => Promise.resolve({ xml: `<DPS n="${nDps}"/>`, idDps: `DPS${String(nDps).padStart(42, '0')}` });
const failing = () => Promise.reject(new Error('XSD: cTribNac'));

test.serial('numbering: a build that throws rolls its nDPS back on either path; the next DPS takes that nDPS, stored TRANSMITTING', async (t) => {
  const doc = newDps();
  // The série's first DPS (no sequence row yet: the knex transaction, which creates it).
  await t.throwsAsync(store().createNumbered(doc, failing), { message: 'XSD: cTribNac' });
  t.is(await sequence(doc.issuerId), 0, 'the sequence row went back with the rollback');
  const first = await store().createNumbered(doc, built);
  t.like(first, { nDps: 1, status: 'TRANSMITTING', transmissions: 1, idDps: `DPS${'1'.padStart(42, '0')}` });
  t.is(first.transmittingUntil!.getTime(), clock.now().getTime() + 120_000);
  // The row exists now: the direct transaction.
  await t.throwsAsync(store().createNumbered(doc, failing), { message: 'XSD: cTribNac' });
  t.is(await sequence(doc.issuerId), 2);
  const second = await store().createNumbered(doc, built);
  t.like(second, { nDps: 2, status: 'TRANSMITTING', transmissions: 1 });
  t.deepEqual(await store().get(second.id), second, 'what createNumbered answers is what it stored');
  t.is(await sequence(doc.issuerId), 3);
});

test.serial('numbering: a key another DPS bound first is KeyAlreadyBound and its nDPS goes back; past MAX_NDPS is 422 and uses nothing', async (t) => {
  const key = `k-${randomUUID()}`;
  const doc = newDps({ idempotencyKey: key, idempotencyFingerprint: 'f' });
  t.like(await store().createNumbered(doc, built), { nDps: 1 });
  const refused = await t.throwsAsync(store().createNumbered({ ...doc }, built));
  t.true(refused instanceof KeyAlreadyBound, String(refused));
  t.is(await sequence(doc.issuerId), 2);

  await stack.knex('emission.nfse_sequences').where({ issuer_id: doc.issuerId }).update({ next_number: 1_000_000_000_000_000 });
  const exhausted = await t.throwsAsync(store().createNumbered({ ...doc, idempotencyKey: null }, built));
  t.like(exhausted, { type: 'UNPROCESSABLE_ENTITY', code: 422, message: 'Numeração da série da DPS esgotada; use outra série.', data: { serie: 1 } });
  t.is(await sequence(doc.issuerId), 1_000_000_000_000_000);
});

test('embedded mode (PGlite): DPS numbered on the knex path, stored TRANSMITTING and authorized with one event each', async (t) => {
  const embedded = await startStack({ pglite: true });
  t.teardown(() => embedded.stop());
  const integrator = await integratorWithA1(embedded, NFSE_ISSUER);
  const answers = [];
  for (let i = 0; i < 2; i++) answers.push(await embedded.request('POST', '/v1/nfse', { headers: integrator.headers, body: aValidNfseBody({ issuerId: integrator.issuerId }) }));
  t.deepEqual(answers.map((a) => [a.status, a.body.data?.status, a.body.data?.nDPS]), [[201, 'AUTHORIZED', 1], [201, 'AUTHORIZED', 2]]);
  const history = await embedded.knex('emission.nfse_history').where({ document_id: answers[1]!.body.data.id }).orderBy('id');
  t.deepEqual(history.map((h: any) => [h.from_status, h.to_status, h.trigger]), [
    [null, 'CREATED', 'emission'], ['CREATED', 'TRANSMITTING', 'emission'], ['TRANSMITTING', 'AUTHORIZED', 'submit:authorized'],
  ]);
  const events = (await embedded.knex('emission.outbox').select('payload')).map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
  t.deepEqual(events.filter((e: any) => e.data?.model === 'NFSe').map((e: any) => [e.type, e.data.number]).sort(), [['invoice.authorized', 1], ['invoice.authorized', 2]]);
  t.is(Number((await embedded.knex('emission.nfse_sequences').where({ issuer_id: integrator.issuerId }).first()).next_number), 3);
});
