import test from 'ava';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { createA1, createCa } from '../../support/certificates.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { closeAllRedis } from '../../../services/shared/redis.js';
import { aCompleteIssuer, as } from './support.js';

const DAY = 86_400_000;

test('certificate.expiring: one event per threshold (30, 15, 7, 3, 1) with two nodes running the job at once', async (t) => {
  const t0 = new Date();
  const clock = new ManualClock(t0);
  const stack = await startStack({
    redis: true,
    clock,
    // The dispatcher takes the relayed events (the relay marks a row published only once it stored them).
    nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }, { services: ['issuer', 'webhook-dispatcher'] }],
  });
  // stack.stop() leaves the process-wide Redis client (gateway rate limiter) open.
  t.teardown(async () => { await stack.stop(); await closeAllRedis(); });
  const ca = createCa();

  async function issuerWithCert(partner: string, notAfter: Date) {
    const issuer = (await stack.request('POST', '/v1/companies', { headers: as(partner), body: aCompleteIssuer() })).body.data;
    const a1 = createA1(ca, { cnpj: issuer.cnpj, notAfter });
    const res = await stack.request('POST', `/v1/companies/${issuer.issuerId}/certificate`, { headers: as(partner), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
    t.is(res.status, 201, JSON.stringify(res.body));
    return { issuerId: issuer.issuerId as string, cnpj: issuer.cnpj as string, ...res.body.data.certificado as { notAfter: string; serial: string } };
  }

  const far = await issuerWithCert('pe1', new Date(t0.getTime() + 45 * DAY));
  const near = await issuerWithCert('pe2', new Date(t0.getTime() + 20 * DAY + 3_600_000));
  const [n0, n1] = stack.nodes as [any, any];

  async function runOnBothNodes() {
    const results = await Promise.all([n0, n1].flatMap((caller) => [n0, n1].map((target) => caller.call('v1.issuer.runCertificateExpiryCheck', {}, { nodeID: target.nodeID }))));
    return results.reduce((sum: number, r: any) => sum + r.emitted, 0);
  }
  async function events() {
    const rows = await stack.knex('issuer.outbox').orderBy('created_at');
    return rows.map((r: any) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload)).filter((p: any) => p.type === 'certificate.expiring');
  }

  // 20 days left at the start: the current threshold is 30 (a missed "30" is not replayed as stale later).
  t.is(await runOnBothNodes(), 1);
  const first = await events();
  t.is(first.length, 1);
  t.deepEqual(first[0], {
    id: first[0].id, type: 'certificate.expiring', timestamp: t0.toISOString(), partnerId: 'pe2',
    data: { issuerId: near.issuerId, cnpj: near.cnpj, daysUntilExpiry: 20, notAfter: near.notAfter, serial: near.serial },
  });

  const notAfter = new Date(far.notAfter).getTime();
  const steps: [number, number | null][] = [
    [31 * DAY, null], [30 * DAY, 30], [29.5 * DAY, null], [16 * DAY, null], [15 * DAY, 15], [14 * DAY, null],
    [7 * DAY, 7], [6 * DAY, null], [3 * DAY, 3], [2 * DAY, null], [1 * DAY, 1], [0.5 * DAY, null], [-1 * DAY, null],
  ];
  for (const [before, expected] of steps) {
    clock.set(new Date(notAfter - before));
    const emitted = await runOnBothNodes();
    const farEvents = (await events()).filter((e: any) => e.data.issuerId === far.issuerId);
    if (expected === null) {
      t.is(farEvents.filter((e: any) => e.timestamp === clock.now().toISOString()).length, 0, `nothing at ${before / DAY} days`);
    } else {
      const last = farEvents.at(-1);
      t.deepEqual(last, {
        id: last.id, type: 'certificate.expiring', timestamp: clock.now().toISOString(), partnerId: 'pe1',
        data: { issuerId: far.issuerId, cnpj: far.cnpj, daysUntilExpiry: expected, notAfter: far.notAfter, serial: far.serial },
      }, `threshold ${expected}`);
    }
    t.true(emitted <= 2, `at most one event per certificate per run (${before / DAY} days)`);
  }
  const all = (await events()).filter((e: any) => e.data.issuerId === far.issuerId);
  t.deepEqual(all.map((e: any) => e.data.daysUntilExpiry), [30, 15, 7, 3, 1]);
  t.is(new Set(all.map((e: any) => e.id)).size, 5);
  const notices = await stack.knex('issuer.certificate_expiry_notices').where({ issuer_id: far.issuerId }).orderBy('threshold', 'desc');
  t.deepEqual(notices.map((n: any) => n.threshold), [30, 15, 7, 3, 1]);
  t.deepEqual(notices.map((n: any) => n.event_id).sort(), all.map((e: any) => e.id).sort());

  // The near certificate crossed 15, 7, 3, 1 during the same runs: one event each, never twice.
  const nearDays = (await events()).filter((e: any) => e.data.issuerId === near.issuerId).map((e: any) => e.data.daysUntilExpiry);
  t.is(nearDays.length, new Set((await stack.knex('issuer.certificate_expiry_notices').where({ issuer_id: near.issuerId })).map((n: any) => n.threshold)).size);

  // The relay publishes every committed event (published_at set), on whichever node claims it.
  for (let i = 0; i < 50; i++) {
    const pending = await stack.knex('issuer.outbox').whereNull('published_at').count<{ count: string }[]>('* as count');
    if (Number(pending[0]!.count) === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  t.is(Number((await stack.knex('issuer.outbox').whereNull('published_at').count<{ count: string }[]>('* as count'))[0]!.count), 0);
});
