import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack } from '../../support/stack.js';
import { FakeAuthService } from '../../support/fake-auth.js';
import { liveKey } from '../../support/webhooks.js';

/** A delivery that used up its attempts, as the scheduler leaves it in the DLQ. */
function deadDelivery(partnerId: string, at: Date) {
  return {
    id: randomUUID(), partner_id: partnerId, event_id: randomUUID(), event_type: 'invoice.authorized', body: '{}',
    status: 'dead', max_attempts: 5, attempts: 5, total_attempts: 5, created_at: at, updated_at: at, dead_at: at,
  };
}

test('DELETE /webhooks/dlq answers the number of purged deliveries in the embedded mode (PGlite), not the driver result', async (t) => {
  const stack = await startStack({ pglite: true, nodes: [{ services: ['api-gateway', 'webhook-dispatcher'], extra: [FakeAuthService] }] });
  t.teardown(() => stack.stop());
  const now = new Date();
  await stack.knex('webhooks.deliveries').insert([deadDelivery('p-embedded', now), deadDelivery('p-embedded', now), deadDelivery('p-other', now)]);

  const purge = await stack.request('DELETE', '/v1/webhooks/dlq', { headers: liveKey('p-embedded') });
  t.is(purge.status, 200);
  t.deepEqual(purge.body, { data: { purged: 2 }, meta: { requestId: purge.headers.get('x-request-id'), timestamp: purge.body.meta.timestamp } });
  const empty = await stack.request('DELETE', '/v1/webhooks/dlq', { headers: liveKey('p-embedded') });
  t.deepEqual([empty.status, empty.body.data], [200, { purged: 0 }]);
  // Another partner's dead delivery is not touched.
  t.is((await stack.request('GET', '/v1/webhooks/dlq', { headers: liveKey('p-other') })).body.data.total, 1);
  // The contract says so too: the OpenAPI answer is the envelope around an integer count.
  const doc = (await stack.request('GET', '/api-docs-json')).body;
  t.deepEqual(doc.paths['/v1/webhooks/dlq'].delete.responses['200'].content['application/json'].schema.properties.data, {
    type: 'object', required: ['purged'], properties: { purged: { type: 'integer', minimum: 0, description: 'Entregas mortas apagadas' } },
  });
});
