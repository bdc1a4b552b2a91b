import test from 'ava';
import { startStack } from '../../support/stack.js';
import { aValidNfseBody } from '../../support/nfse-factories.js';
import { integratorWithA1 } from '../../support/e2e.js';
import { SefinStandIn } from '../../support/sefin-stand-in.js';
import { closeAllRedis } from '../../../services/shared/redis.js';

// The gateway's rate limiter shares one Redis client per process; stack.stop() leaves it open.
test.after.always(() => closeAllRedis());

test('200 concurrent DPS over two emission nodes get 200 distinct consecutive nDPS, each with its own idDps', async (t) => {
  const sefin = new SefinStandIn();
  const stack = await startStack({
    redis: true,
    env: {},
    nodes: [
      { services: ['api-gateway', 'auth', 'issuer', 'webhook-dispatcher'], extra: [sefin.service()] },
      { services: ['emission'] },
      { services: ['emission'] },
    ],
  });
  t.teardown(() => stack.stop());
  const { headers, issuerId } = await integratorWithA1(stack, { crt: 1, inscricaoMunicipal: '12345678' });
  const handled = [0, 0];
  [1, 2].forEach((n, i) => {
    const svc: any = stack.nodes[n]!.getLocalService('v1.emission');
    const store = svc.nfse;
    // A DPS is numbered with the DPS of its série that waited with it on that node.
    const create = store.createNumberedGroup.bind(store);
    store.createNumberedGroup = (...args: any[]) => { handled[i]!++; return create(...args); };
  });
  const results = await Promise.all(Array.from({ length: 200 }, () => stack.request('POST', '/v1/nfse', { headers, body: aValidNfseBody({ issuerId }) })));
  t.deepEqual([...new Set(results.map((r) => r.status))], [201]);
  const numbers = results.map((r) => r.body.data.nDPS).sort((a, b) => a - b);
  t.deepEqual(numbers, Array.from({ length: 200 }, (_, i) => i + 1));
  t.is(new Set(results.map((r) => r.body.data.idDps)).size, 200);
  t.true(handled[0]! > 0 && handled[1]! > 0, `both nodes numbered: ${handled}`);
});
