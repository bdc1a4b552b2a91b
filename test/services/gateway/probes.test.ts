import test from 'ava';
import { startStack, type Stack } from '../../support/stack.js';
import { beginDrain } from '../../../services/shared/drain.js';
import { parseExposition, valueOf } from '../../support/prometheus.js';

/**
 * /health/ready and /metrics on a two-node cluster over Redis: a gateway node and a node with no
 * product service (each node runs $metrics). METRICS_TOKEN is set, so the scrape needs it.
 */
const TOKEN = 'scrape-token-0123456789';
let stack: Stack;

test.before(async () => {
  stack = await startStack({ redis: true, nodes: [{ services: ['api-gateway'] }, { services: [] }], env: { METRICS_TOKEN: TOKEN } });
});
test.after.always(async () => {
  await stack?.stop();
});

test.serial('with METRICS_TOKEN, /metrics answers 401 UNAUTHORIZED without the bearer token or with another one', async (t) => {
  for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }] as Record<string, string>[]) {
    const res = await stack.request('GET', '/metrics', { headers });
    t.is(res.status, 401, JSON.stringify(headers));
    t.like(res.body.error, { type: 'https://errors.test/UNAUTHORIZED', status: 401, detail: 'Métricas exigem Authorization: Bearer com o METRICS_TOKEN.', instance: '/metrics' });
    t.is(res.headers.get('x-ratelimit-limit'), '1000'); // the per-IP window (IP_RATE_LIMIT of the tests), counted before the token
  }
});

test.serial('/metrics on the gateway serves every node\'s own series, each under its node label', async (t) => {
  const res = await stack.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  t.is(res.status, 200, res.text);
  const m = parseExposition(res.text);
  const [gateway, other] = stack.nodes.map((b) => b.nodeID);
  for (const node of [gateway!, other!]) {
    t.is(valueOf(m, 'fiscal_metrics_node_scrape_ok', { node }), 1, node);
    // Process figures come from each node's own registry, not the gateway's.
    t.true(valueOf(m, 'fiscal_process_resident_memory_bytes', { node }) > 0, node);
  }
  // Only the gateway node answers HTTP: the other node has no request series at all.
  t.true(m.samples.some((s) => s.name === 'fiscal_http_requests_total' && s.labels.node === gateway));
  t.false(m.samples.some((s) => s.name === 'fiscal_http_requests_total' && s.labels.node === other));
});

test.serial('/health/ready answers 200, then 503 SERVICE_UNAVAILABLE from the moment the node drains; /health/live stays 200', async (t) => {
  const ready = await stack.request('GET', '/health/ready');
  t.is(ready.status, 200, ready.text);
  t.deepEqual(ready.body.data, { status: 'ready', node: stack.nodes[0]!.nodeID });

  beginDrain(stack.nodes[0]!);
  const draining = await stack.request('GET', '/health/ready', { headers: { 'x-request-id': 'ready-drain-00001' } });
  t.is(draining.status, 503);
  t.deepEqual(draining.body.error, {
    type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503,
    detail: 'Nó encerrando: não recebe novas requisições.', instance: '/health/ready', requestId: 'ready-drain-00001',
    timestamp: draining.body.error.timestamp, details: { node: stack.nodes[0]!.nodeID, draining: true },
  });
  t.is((await stack.request('GET', '/health/live')).status, 200);
});
