import test from 'ava';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { createA1, createCa } from '../../support/certificates.js';
import { ManualClock } from '../../../services/shared/clock.js';
import { aCompleteIssuer, as } from './support.js';
import { charSum } from '../../../services/issuer/lookup-simulator.js';

test('embedded mode (PGlite): create, conflict, certificate, preflight, expiry event and the built-in lookup work', async (t) => {
  const clock = new ManualClock(new Date());
  const stack = await startStack({ pglite: true, clock, nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }] });
  t.teardown(() => stack.stop());
  const body = aCompleteIssuer({ csc: 'CSC-1', cscId: '1' });
  const created = await stack.request('POST', '/v1/companies', { headers: as('pg1'), body });
  t.is(created.status, 201);
  t.is((await stack.request('POST', '/v1/companies', { headers: as('pg2'), body })).status, 409);
  const a1 = createA1(createCa(), { cnpj: body.cnpj as string, notAfter: new Date(clock.now().getTime() + 10 * 86_400_000) });
  const cert = await stack.request('POST', `/v1/companies/${created.body.data.issuerId}/certificate`, { headers: as('pg1'), body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  t.is(cert.status, 201);
  const ready: any = await stack.nodes[0]!.call('v1.issuer.forEmission', { partnerId: 'pg1', model: '65', keyKind: 'test' });
  t.is(ready.issuer.cnpj, body.cnpj);
  t.like(await stack.nodes[0]!.call('v1.issuer.runCertificateExpiryCheck', {}), { emitted: 1 });
  t.like(await stack.nodes[0]!.call('v1.issuer.runCertificateExpiryCheck', {}), { emitted: 0 });
  const lookup = await stack.request('GET', `/v1/queries/cnpj/${body.cnpj}`, { headers: as('pg1') });
  // The simulator's registry: documents whose character values sum to a multiple of 7 do not exist.
  t.is(lookup.status, charSum(body.cnpj as string) % 7 === 0 ? 404 : 200);
  if (lookup.status === 200) t.is(lookup.body.data.cnpj, body.cnpj);
});
