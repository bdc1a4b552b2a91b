import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../support/stack.js';
import { ALL_SERVICES } from '../../services/index.js';
import { ManualClock } from '../../services/shared/clock.js';
import { integratorWithA1 } from '../support/e2e.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { aValidNfseBody } from '../support/nfse-factories.js';
import { waitFor } from '../support/webhooks.js';

/**
 * Issue 20, defect 1: the same Idempotency-Key must never emit a second note, whichever node dies
 * while the first request waits for the authority. Every service is real (simulator included);
 * the emission and gateway processes die as crashNode makes them (kill -9: nothing of the
 * request in flight runs on), and the clock is manual so the 2-minute lease and stale windows can pass.
 */
const SLOW_MS = 2_500;

interface Cluster {
  stack: Stack;
  clock: ManualClock;
  headers: Record<string, string>;
  issuerId: string;
  simulator: any;
}

async function startCluster(t: any, nodes: { services: string[] }[], issuer: Record<string, unknown> = {}): Promise<Cluster> {
  const clock = new ManualClock(new Date());
  const stack = await startStack({ redis: true, clock, nodes });
  t.teardown(() => stack.stop());
  const { headers, issuerId } = await integratorWithA1(stack, issuer);
  const sefaz: any = stack.nodes.find((n) => n.getLocalService('v1.sefaz'))!.getLocalService('v1.sefaz');
  return { stack, clock, headers, issuerId, simulator: sefaz.simulator };
}

async function post(url: string, headers: Record<string, string>, body: unknown, path = '/v1/nfe') {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

async function documentsOf(stack: Stack, key: string) {
  return stack.knex('emission.documents').where({ idempotency_key: key }).select('id', 'number', 'status', 'access_key');
}

async function authorizedEventsOf(stack: Stack, id: string) {
  return (await stack.knex('emission.outbox')).filter((r: any) => r.payload.type === 'invoice.authorized' && r.payload.data.invoiceId === id);
}

test.serial('the emission node dies while TRANSMITTING: the retry with the same Idempotency-Key answers the same document, which ends AUTHORIZED once', async (t) => {
  const withoutEmission = ALL_SERVICES.filter((s) => s !== 'emission');
  const { stack, clock, headers, simulator } = await startCluster(t, [{ services: withoutEmission }, { services: ['emission'] }]);
  const url = stack.urls[0]!;
  const key = `pedido-${randomUUID()}`;
  const h = { ...headers, 'idempotency-key': key };
  const body = aValidNfeBody();
  simulator.faults.add({ mode: 'slow', service: 'NFeAutorizacao4', delayMs: SLOW_MS, times: 1 });

  const first = post(url, h, body);
  const [doc] = await waitFor(async () => {
    const rows = await documentsOf(stack, key);
    return rows[0]?.status === 'TRANSMITTING' ? rows : undefined;
  }, 'the note in flight');
  await stack.crashNode(1); // the only emission node dies with the authority's answer outstanding
  const lost = await first;
  t.is(lost.status, 503, lost.text);
  t.is(lost.headers.get('retry-after'), '5');
  t.deepEqual(lost.body, {
    error: {
      type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail: 'Serviço temporariamente indisponível.',
      instance: '/v1/nfe', requestId: lost.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  // The authority registers the note once its slow processing ends; the answer goes nowhere.
  await waitFor(() => stack.knex('simulator.notes').where({ access_key: doc!.access_key }).first(), 'the authority registered the note');

  await stack.addNode({ services: ['emission'] });
  // Its first attempt's lease is still alive: the retry answers the document as it is, never a new number.
  const during = await waitFor(async () => { const r = await post(url, h, body); return r.status === 404 ? undefined : r; }, 'the new node routed');
  t.is(during.status, 201, during.text);
  t.like(during.body.data, { id: doc!.id, number: doc!.number, accessKey: doc!.access_key, status: 'TRANSMITTING' });

  // The dead attempt's lease ends: the retry consults by key (it may have reached the authority) and settles on it.
  clock.advance(121_000);
  const settled = await post(url, h, body);
  t.is(settled.status, 201, settled.text);
  t.like(settled.body.data, { id: doc!.id, number: doc!.number, accessKey: doc!.access_key, status: 'AUTHORIZED' });
  const replay = await post(url, h, body);
  t.is(replay.status, 201, replay.text);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body.data, settled.body.data);

  t.deepEqual((await documentsOf(stack, key)).map((d: any) => [d.id, d.status]), [[doc!.id, 'AUTHORIZED']]);
  t.is((await stack.knex('emission.documents').where({ status: 'AUTHORIZED' })).length, 1);
  t.is((await authorizedEventsOf(stack, doc!.id)).length, 1);
});

test.serial('the gateway dies while the note is in flight: a retry through another gateway answers the same document, also after the 2-minute stale window', async (t) => {
  const { stack, clock, headers, simulator } = await startCluster(t, [{ services: ['api-gateway'] }, { services: [...ALL_SERVICES] }]);
  const [doomed, survivor] = stack.urls as [string, string];
  const key = `pedido-${randomUUID()}`;
  const h = { ...headers, 'idempotency-key': key };
  const body = aValidNfeBody();
  simulator.faults.add({ mode: 'slow', service: 'NFeAutorizacao4', delayMs: SLOW_MS, times: 1 });

  const first = post(doomed, h, body).catch((err: Error) => err);
  await waitFor(async () => (await documentsOf(stack, key))[0]?.status === 'TRANSMITTING', 'the note in flight');
  await stack.crashNode(0); // the gateway dies: the client's connection drops, nothing more of it runs
  t.true((await first) instanceof Error);
  const [doc] = await waitFor(async () => {
    const rows = await documentsOf(stack, key);
    return rows[0]?.status === 'AUTHORIZED' ? rows : undefined;
  }, 'the emission finished on its own');

  const retry = await post(survivor, h, body);
  t.is(retry.status, 201, retry.text);
  t.like(retry.body.data, { id: doc!.id, number: doc!.number, status: 'AUTHORIZED' });

  clock.advance(121_000); // past the gateway's stale-takeover window
  const later = await post(survivor, h, body);
  t.is(later.status, 201, later.text);
  t.like(later.body.data, { id: doc!.id, number: doc!.number, status: 'AUTHORIZED' });

  t.is((await documentsOf(stack, key)).length, 1);
  t.is((await stack.knex('emission.documents')).length, 1);
  t.is((await authorizedEventsOf(stack, doc!.id)).length, 1);
});

test.serial('NFS-e: the emission node dies while the DPS is TRANSMITTING: the retry with the same Idempotency-Key answers the same DPS, which ends AUTHORIZED once', async (t) => {
  const withoutEmission = ALL_SERVICES.filter((s) => s !== 'emission');
  const nfseIssuer = { crt: 1, inscricaoMunicipal: '12345678', email: 'fiscal@prestador.com.br' };
  const { stack, clock, headers, issuerId, simulator } = await startCluster(t, [{ services: withoutEmission }, { services: ['emission'] }], nfseIssuer);
  const url = stack.urls[0]!;
  const key = `dps-${randomUUID()}`;
  const h = { ...headers, 'idempotency-key': key };
  const body = aValidNfseBody({ issuerId });
  const dpsOf = () => stack.knex('emission.nfse_documents').where({ idempotency_key: key }).select('id', 'n_dps', 'id_dps', 'status');
  simulator.faults.add({ mode: 'slow', service: 'SefinNfse', delayMs: SLOW_MS, times: 1 });

  const first = post(url, h, body, '/v1/nfse');
  const [dps] = await waitFor(async () => {
    const rows = await dpsOf();
    return rows[0]?.status === 'TRANSMITTING' ? rows : undefined;
  }, 'the DPS in flight');
  // The slow fault taken: the DPS reached Sefin, which holds it before processing.
  await waitFor(async () => simulator.faults.list().length === 0 || undefined, 'the DPS at Sefin');
  await stack.crashNode(1); // the only emission node dies with Sefin's answer outstanding
  const lost = await first;
  t.is(lost.status, 503, lost.text);
  t.is(lost.headers.get('retry-after'), '5');
  t.deepEqual(lost.body, {
    error: {
      type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail: 'Serviço temporariamente indisponível.',
      instance: '/v1/nfse', requestId: lost.headers.get('x-request-id'), timestamp: clock.now().toISOString(),
    },
  });
  // Sefin issues the NFS-e once its slow processing ends; the answer goes nowhere.
  await waitFor(() => stack.knex('simulator.sefin_nfse').where({ id_dps: dps!.id_dps }).first(), 'Sefin issued the NFS-e');

  await stack.addNode({ services: ['emission'] });
  // Its first attempt's lease is still alive: the retry answers the DPS as it is, never a new nDPS.
  const during = await waitFor(async () => { const r = await post(url, h, body, '/v1/nfse'); return r.status === 404 ? undefined : r; }, 'the new node routed');
  t.is(during.status, 201, during.text);
  t.like(during.body.data, { id: dps!.id, nDPS: Number(dps!.n_dps), idDps: dps!.id_dps, status: 'TRANSMITTING' });

  // The dead attempt's lease ends: the retry consults by idDps (it may have reached Sefin) and settles on it.
  clock.advance(121_000);
  const settled = await post(url, h, body, '/v1/nfse');
  t.is(settled.status, 201, settled.text);
  t.like(settled.body.data, { id: dps!.id, nDPS: Number(dps!.n_dps), idDps: dps!.id_dps, status: 'AUTHORIZED' });
  t.regex(settled.body.data.chaveAcesso, /^\d{50}$/);
  const replay = await post(url, h, body, '/v1/nfse');
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body.data, settled.body.data);

  t.deepEqual((await dpsOf()).map((d: any) => [d.id, d.status]), [[dps!.id, 'AUTHORIZED']]);
  t.is((await stack.knex('simulator.sefin_nfse').where({ id_dps: dps!.id_dps })).length, 1);
  const authorized = (await stack.knex('emission.outbox')).filter((r: any) => r.payload.type === 'invoice.authorized' && r.payload.data.nfseId === dps!.id);
  t.is(authorized.length, 1);
});
