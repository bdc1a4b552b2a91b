import { connect } from 'node:net';
import { hostname } from 'node:os';
import { ServiceBroker } from 'moleculer';
import { loadConfig } from '../config.js';

/**
 * Container healthcheck (Dockerfile HEALTHCHECK, docker-compose.yml): exits 0 when the process of
 * this container serves, 1 otherwise, with one line saying why. Three kinds of process:
 * - `healthcheck simulator`: the standalone simulator accepts connections on SIMULATOR_PORT (its
 *   HTTPS port wants a client certificate, so a TCP connect is the most a probe can do);
 * - a node that runs the gateway (SERVICES empty or with api-gateway): GET /health on PORT is 200;
 * - any other node has no HTTP port: the probe joins the cluster (same NAMESPACE and transporter)
 *   and looks for an available node of this host running every service of SERVICES: this
 *   container's own node (in a container the host name is the container's).
 */
const PROBE_TIMEOUT_MS = 8_000;

interface Node { hostname: string; local: boolean; services?: { name: string }[] }

const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });

function tcp(port: number): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); done(); });
    socket.once('error', fail);
  });
}

async function gateway(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${config.http.port}/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
}

async function clusterNode(): Promise<void> {
  if (!config.redisUrl) throw new Error('a node without the gateway needs REDIS_URL to be seen');
  const broker = new ServiceBroker({
    namespace: config.namespace,
    nodeID: `healthcheck-${hostname()}-${process.pid}`,
    transporter: { type: 'Redis', options: config.redisUrl },
    logger: false,
  });
  await broker.start();
  try {
    const deadline = Date.now() + PROBE_TIMEOUT_MS;
    for (;;) {
      const nodes = await broker.call<Node[], object>('$node.list', { onlyAvailable: true, withServices: true });
      if (nodes.some((n) => !n.local && n.hostname === hostname() && config.services.every((name) => n.services?.some((s) => s.name === name)))) return;
      if (Date.now() > deadline) throw new Error(`no node of host ${hostname()} with ${config.services.join(',')} in namespace '${config.namespace}'`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await broker.stop();
  }
}

const servesHttp = config.services.length === 0 || config.services.includes('api-gateway');
const probe = process.argv[2] === 'simulator' ? () => tcp(config.sefaz.simulatorPort || 8443) : servesHttp ? gateway : clusterNode;
try {
  await probe();
  process.exit(0);
} catch (err) {
  process.stderr.write(`unhealthy: ${(err as Error).message}\n`);
  process.exit(1);
}
