import test from 'ava';
import { randomBytes } from 'node:crypto';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { createA1, createCa } from '../../support/certificates.js';
import { encrypt as encryptSecret, keyIdOf as secretKeyId } from '../../../lib/crypto/aead.js';
import { aCompleteIssuer, as } from './support.js';

test('key rotation: rows sealed with an old key still sign, resealSecrets moves them to the current key', async (t) => {
  const oldKey = { id: 'old', key: randomBytes(32) };
  const newKey = { id: 'new', key: randomBytes(32) };
  const stack = await startStack({
    env: { ENCRYPTION_KEYS: `new:${newKey.key.toString('base64')},old:${oldKey.key.toString('base64')}` },
    nodes: [{ services: ['api-gateway', 'issuer'], extra: [FakeAuthService] }],
  });
  t.teardown(() => stack.stop());
  const issuer = (await stack.request('POST', '/v1/companies', { headers: as('pk'), body: aCompleteIssuer() })).body.data;
  const a1 = createA1(createCa(), { cnpj: issuer.cnpj });
  t.is((await stack.request('POST', `/v1/companies/${issuer.issuerId}/certificate`, { headers: as('pk'), body: { pfxBase64: a1.pfxBase64, password: a1.password } })).status, 201);
  const fresh = await stack.knex('issuer.issuers').where({ id: issuer.issuerId }).first();
  t.is(secretKeyId(fresh.cert_pfx), 'new', 'the first key seals');

  // Data sealed before the rotation, under the old key.
  await stack.knex('issuer.issuers').where({ id: issuer.issuerId }).update({
    cert_pfx: encryptSecret(Buffer.from(a1.pfxBase64, 'base64'), [oldKey], `issuer:${issuer.issuerId}:pfx`),
    cert_password: encryptSecret(a1.password, [oldKey], `issuer:${issuer.issuerId}:pfx-password`),
  });
  const material: any = await stack.nodes[0]!.call('v1.issuer.signingMaterial', { issuerId: issuer.issuerId });
  t.is(material.fingerprint, fresh.cert_fingerprint);

  t.deepEqual(await stack.nodes[0]!.call('v1.issuer.resealSecrets', {}), { resealed: 1 });
  const after = await stack.knex('issuer.issuers').where({ id: issuer.issuerId }).first();
  t.is(secretKeyId(after.cert_pfx), 'new');
  t.is(secretKeyId(after.cert_password), 'new');
  t.deepEqual(await stack.nodes[0]!.call('v1.issuer.resealSecrets', {}), { resealed: 0 });
});
