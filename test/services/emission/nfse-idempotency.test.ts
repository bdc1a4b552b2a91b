import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type HttpResult, type Stack } from '../../support/stack.js';
import { aValidNfseBody, NFSE_ISSUER } from '../../support/nfse-factories.js';
import { integratorWithA1 } from '../../support/e2e.js';
import { SefinStandIn, standInStack } from '../../support/sefin-stand-in.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { assertUnavailable as unavailable } from '../../support/unavailable.js';

/**
 * Issue 16 audit, gap 1: an NFS-e's Idempotency-Key is bound to its DPS in the numbering
 * transaction, as NF-e's is (test/services/emission-idempotency.test.ts mirrors these cases): whatever
 * happens to the gateway's own record (released after a 5xx, taken over, purged), a retry answers —
 * and when needed carries on — the same DPS, never a second nDPS.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
let partnerId: string;
const sefin = new SefinStandIn();
const clock = new ManualClock(new Date());

test.before(async () => {
  ({ stack, headers, issuerId, partnerId } = await standInStack(sefin, clock));
});
test.after.always(async () => { await stack?.stop(); });
test.beforeEach(() => { sefin.submit = { kind: 'authorize' }; });

const keyed = (key = `dps-${randomUUID()}`) => ({ ...headers, 'idempotency-key': key });
const post = (body: unknown, h: Record<string, string>) => stack.request('POST', '/v1/nfse', { headers: h, body });
/** What a 5xx release, a stale takeover or the 24-hour purge leaves of the gateway's record: nothing. */
/** The gateway's records past their 24 hours: only the emission's binding still knows the key. */
const forgetGatewayRecords = () => stack.knex('gateway.idempotency_keys').update({ expires_at: new Date(clock.now().getTime() - 1) });
const dpsOf = (key: string) => stack.knex('emission.nfse_documents').where({ idempotency_key: key }).select('id', 'n_dps', 'status', 'id_dps');
const nextNDps = async () => Number((await stack.knex('emission.nfse_sequences').where({ issuer_id: issuerId, serie: 1, environment: 2 }).first())?.next_number ?? 1);
const submitsOf = (idDps: string) => sefin.calls.filter((c) => c.action === 'nfseSubmit' && c.params.idDps === idDps).length;
const authorizedEvents = async (nfseId: string) => (await stack.knex('emission.outbox').select('payload'))
  .map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
  .filter((p: any) => p.type === 'invoice.authorized' && p.data?.nfseId === nfseId);

const assertUnavailable = (t: ExecutionContext, res: HttpResult, details: Record<string, unknown>) => unavailable(t, res, '/v1/nfse', clock.now(), details);

test.serial('requests racing past the gateway with one key number one DPS; every one answers it', async (t) => {
  const key = `dps-${randomUUID()}`;
  const before = await nextNDps();
  const caller = { scheme: 'key', partnerId, keyKind: 'live' };
  const body = aValidNfseBody({ issuerId });
  const answers = await Promise.all(Array.from({ length: 6 }, () => stack.nodes[0]!.call('v1.emission.emitNfse', body, { meta: { caller, idempotencyKey: key } })));
  const rows = await dpsOf(key);
  t.is(rows.length, 1);
  t.deepEqual([...new Set(answers.map((a: any) => `${a.id}:${a.nDPS}`))], [`${rows[0].id}:${before}`]);
  t.is(await nextNDps(), before + 1);
  t.is(submitsOf(rows[0].id_dps), 1);
  t.is((await authorizedEvents(rows[0].id)).length, 1);
});

test.serial('a retry after the gateway\'s record expired answers the same DPS and sends nothing; another body under the key is 422 and numbers nothing', async (t) => {
  const h = keyed();
  const body = aValidNfseBody({ issuerId });
  const first = await post(body, h);
  t.is(first.status, 201, first.text);
  await forgetGatewayRecords();
  const sends = sefin.count('nfseSubmit');

  const again = await post(body, h);
  t.is(again.status, 201, again.text);
  t.is(again.headers.get('idempotent-replayed'), null); // answered by the emission from its binding
  t.deepEqual(again.body.data, first.body.data);
  t.is(sefin.count('nfseSubmit'), sends);

  await forgetGatewayRecords();
  const numbered = await nextNDps();
  const other = await post(aValidNfseBody({ issuerId, servico: { ...body.servico, discriminacao: 'Outro pedido de servico' } }), h);
  t.is(other.status, 422, other.text);
  t.deepEqual(other.body, {
    error: {
      type: 'https://errors.test/IDEMPOTENCIA_CORPO_DIVERGENTE', title: 'Unprocessable Entity', status: 422,
      detail: 'Idempotency-Key já usada com outro corpo de requisição.', details: { idempotencyKey: h['idempotency-key'] },
      instance: '/v1/nfse', requestId: other.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  t.deepEqual((await dpsOf(h['idempotency-key'])).map((d: any) => d.id), [first.body.data.id]);
  t.is(await nextNDps(), numbered);
});

test.serial('an answer lost after Sefin processed the DPS: the retry consults by idDps and answers AUTHORIZED without sending again', async (t) => {
  const h = keyed();
  const body = aValidNfseBody({ issuerId });
  sefin.submit = { kind: 'drop-after-processing' };
  const first = await post(body, h);
  t.is(first.status, 201, first.text);
  t.like(first.body.data, { status: 'TRANSMITTING', chaveAcesso: null });
  const { id, idDps, nDPS } = first.body.data;
  const consults = sefin.count('nfseConsultDps');

  sefin.submit = { kind: 'authorize' };
  // Not replayed: the open state changes, so the retry reaches the emission and consults first.
  const retry = await post(body, h);
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id, idDps, nDPS, status: 'AUTHORIZED', chaveAcesso: sefin.issued.get(idDps)!.chaveAcesso });
  t.is(submitsOf(idDps), 1);
  t.is(sefin.count('nfseConsultDps'), consults + 1);
  t.is((await authorizedEvents(id)).length, 1);
  const replay = await post(body, h);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body.data, retry.body.data);
});

test.serial('a DPS an earlier version left CREATED (the database failed before its TRANSMITTING commit) answers 503 naming it; the retry carries that same DPS on', async (t) => {
  const h = keyed();
  const body = aValidNfseBody({ issuerId });
  const emission: any = stack.nodes[0]!.getLocalService('v1.emission');
  // A new DPS is numbered with the DPS of its série that waited with it (nfse.createNumberedGroup).
  const createNumberedGroup = emission.nfse.createNumberedGroup;
  // A new DPS now commits TRANSMITTING with its nDPS (NfseStore.createNumbered); before, the
  // numbering committed CREATED and TRANSMITTING was a transaction of its own. Such a DPS, whose
  // request died in between, may still be in the database: it is made here as that version left it.
  emission.nfse.createNumberedGroup = async (...args: unknown[]) => {
    const settled: Array<PromiseSettledResult<{ id: string }>> = await createNumberedGroup.apply(emission.nfse, args);
    for (const s of settled) {
      if (s.status !== 'fulfilled') continue;
      await stack.knex('emission.nfse_documents').where({ id: s.value.id }).update({ status: 'CREATED', transmissions: 0, transmitting_until: null });
      await stack.knex('emission.nfse_history').where({ document_id: s.value.id, to_status: 'TRANSMITTING' }).del();
    }
    throw new Error('Connection terminated unexpectedly');
  };
  t.teardown(() => { emission.nfse.createNumberedGroup = createNumberedGroup; });

  const failed = await post(body, h);
  emission.nfse.createNumberedGroup = createNumberedGroup;
  const [dps] = await dpsOf(h['idempotency-key']);
  assertUnavailable(t, failed, { nfseId: dps.id, status: 'CREATED' });
  const numbered = await nextNDps();

  // Its creating request may still be about to send it: answered as it is, and not kept for replay.
  const early = await post(body, h);
  t.is(early.status, 201, early.text);
  t.like(early.body.data, { id: dps.id, nDPS: Number(dps.n_dps), status: 'CREATED' });
  t.is(submitsOf(dps.id_dps), 0);

  clock.advance(121_000); // that request is taken to have died: the retry sends the stored DPS (same idDps)
  const carried = await post(body, h);
  t.is(carried.status, 201, carried.text);
  t.like(carried.body.data, { id: dps.id, nDPS: Number(dps.n_dps), idDps: dps.id_dps, status: 'AUTHORIZED' });
  t.is(submitsOf(dps.id_dps), 1);
  t.is(await nextNDps(), numbered);
  t.is((await authorizedEvents(dps.id)).length, 1);
  const history = await stack.knex('emission.nfse_history').where({ document_id: dps.id }).orderBy('id');
  t.deepEqual(history.map((r: any) => [r.from_status, r.to_status, r.trigger]), [
    [null, 'CREATED', 'emission'], ['CREATED', 'TRANSMITTING', 'retry'], ['TRANSMITTING', 'AUTHORIZED', 'submit:authorized'],
  ]);
});

test.serial('a connection lost as the numbering commits: the gateway\'s 503 names the DPS committed TRANSMITTING, never sent; once its lease expired the retry consults by idDps, then sends it', async (t) => {
  const h = keyed();
  const body = aValidNfseBody({ issuerId });
  const emission: any = stack.nodes[0]!.getLocalService('v1.emission');
  const createNumberedGroup = emission.nfse.createNumberedGroup;
  // The commit went through; its answer never came back.
  emission.nfse.createNumberedGroup = async (...args: unknown[]) => {
    await createNumberedGroup.apply(emission.nfse, args);
    throw new Error('Connection terminated unexpectedly');
  };
  t.teardown(() => { emission.nfse.createNumberedGroup = createNumberedGroup; });
  const consults = sefin.count('nfseConsultDps');

  const failed = await post(body, h);
  emission.nfse.createNumberedGroup = createNumberedGroup;
  const [dps] = await dpsOf(h['idempotency-key']);
  assertUnavailable(t, failed, { nfseId: dps.id, status: 'TRANSMITTING' });
  const history = async () => (await stack.knex('emission.nfse_history').where({ document_id: dps.id }).orderBy('id')).map((r: any) => [r.from_status, r.to_status, r.trigger, r.detail]);
  t.deepEqual(await history(), [
    [null, 'CREATED', 'emission', { idDps: dps.id_dps, nDps: Number(dps.n_dps) }], ['CREATED', 'TRANSMITTING', 'emission', { attempt: 1 }],
  ]);

  // Its transmission's lease is alive: answered as it is, nothing sent.
  const early = await post(body, h);
  t.is(early.status, 201, early.text);
  t.like(early.body.data, { id: dps.id, status: 'TRANSMITTING' });
  t.is(submitsOf(dps.id_dps), 0);

  clock.advance(121_000); // the lease expired: consulted by idDps (unknown to Sefin), then sent with the same idDps
  const carried = await post(body, h);
  t.is(carried.status, 201, carried.text);
  t.like(carried.body.data, { id: dps.id, nDPS: Number(dps.n_dps), idDps: dps.id_dps, status: 'AUTHORIZED' });
  t.is(submitsOf(dps.id_dps), 1);
  t.is(sefin.count('nfseConsultDps'), consults + 1);
  t.is((await dpsOf(h['idempotency-key'])).length, 1);
  t.is((await authorizedEvents(dps.id)).length, 1);
  t.deepEqual((await history()).slice(2).map((r) => r.slice(0, 3)), [
    ['TRANSMITTING', 'TRANSMITTING', 'retransmit'], ['TRANSMITTING', 'AUTHORIZED', 'submit:authorized'],
  ]);
});

test.serial('a Sefin rejection is replayed under the key, not emitted again', async (t) => {
  const h = keyed();
  const body = aValidNfseBody({ issuerId });
  const erros = [{ codigo: 'E0312', descricao: 'Código de tributação nacional inexistente.' }];
  sefin.submit = { kind: 'reject', erros };
  const first = await post(body, h);
  t.is(first.status, 400, first.text);
  await forgetGatewayRecords();
  sefin.submit = { kind: 'authorize' };
  const again = await post(body, h);
  t.is(again.status, 400, again.text);
  t.deepEqual(again.body.error.erros, erros);
  t.deepEqual(again.body.error.details, first.body.error.details);
  t.is((await dpsOf(h['idempotency-key'])).length, 1);
});

test.serial('an emission node lost mid-request: the gateway\'s 503 still names the numbered DPS, found on another node; the retry answers that DPS', async (t) => {
  const cluster = await startStack({
    redis: true, clock,
    nodes: [{ services: ['api-gateway', 'auth', 'issuer'], extra: [sefin.service()] }, { services: ['emission'] }, { services: ['emission'] }],
  });
  let open!: () => void;
  t.teardown(async () => { open?.(); sefin.submitGate = null; await cluster.stop(); });
  const handled = [0, 0];
  [1, 2].forEach((n, i) => {
    const svc: any = cluster.nodes[n]!.getLocalService('v1.emission');
    const create = svc.nfse.createNumberedGroup.bind(svc.nfse);
    svc.nfse.createNumberedGroup = (...args: unknown[]) => { handled[i]!++; return create(...args); };
  });
  const { headers: h, issuerId: clusterIssuer } = await integratorWithA1(cluster, NFSE_ISSUER);
  const keyedHeaders = { ...h, 'idempotency-key': `dps-${randomUUID()}` };
  const body = aValidNfseBody({ issuerId: clusterIssuer });
  sefin.submitGate = new Promise((r) => { open = r; });
  const submits = sefin.count('nfseSubmit');
  const pending = cluster.request('POST', '/v1/nfse', { body, headers: keyedHeaders });
  while (sefin.count('nfseSubmit') === submits) await new Promise((r) => setTimeout(r, 20));
  const dps = await cluster.knex('emission.nfse_documents').where({ idempotency_key: keyedHeaders['idempotency-key'] }).first('id', 'n_dps');
  await cluster.crashNode(handled[0]! ? 1 : 2);

  const lost = await pending;
  assertUnavailable(t, lost, { nfseId: dps.id, status: 'TRANSMITTING' });
  // The same key through the surviving node: the same DPS, its lost attempt's lease still alive.
  const retry = await cluster.request('POST', '/v1/nfse', { body, headers: keyedHeaders });
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id: dps.id, nDPS: Number(dps.n_dps), status: 'TRANSMITTING' });
  t.is((await cluster.knex('emission.nfse_documents').where({ issuer_id: clusterIssuer })).length, 1);
});
