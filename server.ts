import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from './config.js';
import { createNode } from './services/broker.js';
import { beginDrain } from './services/shared/drain.js';
import { closeAllKnex } from './services/shared/database.js';
import { closeAllRedis } from './services/shared/redis.js';
import { announceEmbeddedNode } from './services/shared/embedded-node.js';

/**
 * `npm start`: one node. With no environment it runs every service in this process on embedded
 * Postgres (PGlite under var/) with the built-in authority simulator. With DATABASE_URL and
 * REDIS_URL it joins a cluster; SERVICES=emission,sefaz picks what this node runs. Embedded, it
 * also listens on loopback so `npm run admin` and `npm run repl` join it (services/shared/embedded-node.ts).
 *
 * Signals are handled here, not by Moleculer (moleculer.config.ts skipProcessEventRegistration):
 * SIGTERM or SIGINT fails readiness at once, waits DRAIN_DELAY_MS, stops the broker (requests in
 * flight finish: tracking) and exits 0. `npm start` runs `exec node --import tsx server.ts`: without
 * `exec`, npm's shell (dash) would take the forwarded SIGTERM and die, leaving this process orphaned.
 */
const config = loadConfig();
const embedded = !config.databaseUrl && !config.redisUrl;
const broker = await createNode({ config, ...(embedded ? { loopback: {} } : {}) });
// Its own module name: the broker's banner lines are quiet at info (moleculer.config.ts logLevels).
const log = broker.getLogger('server');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  beginDrain(broker);
  log.info({ signal, drainDelayMs: config.drainDelayMs }, 'draining: readiness fails from now on, then the node stops');
  if (config.drainDelayMs > 0) await sleep(config.drainDelayMs);
  await broker.stop().catch((err: Error) => log.error({ err: err.message }, 'stop failed'));
  await Promise.allSettled([closeAllKnex(), closeAllRedis()]);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// Under `npm start` (which execs this process, so npm's forwarded signal reaches it), npm itself
// may still die without forwarding (SIGKILL): the server must not outlive it as an orphan.
if (process.env.npm_lifecycle_event === 'start') {
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) void shutdown('npm exited'); }, 1_000).unref();
}

try {
  await broker.start();
} catch (err) {
  // A busy port (services/gateway/listen.ts), a database that refuses us: one clear line, exit 1.
  log.fatal({ err: (err as Error).message }, `node ${config.nodeId} could not start: ${(err as Error).message}`);
  stopping = true;
  await broker.stop().catch(() => undefined);
  await Promise.allSettled([closeAllKnex(), closeAllRedis()]);
  process.exit(1);
}
if (embedded) announceEmbeddedNode(broker, config);
const api: any = broker.getLocalService('api');
const address = api?.server?.address();
const url = address && typeof address === 'object' ? `http://${address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.address}:${address.port}` : null;
const services = broker.services.map((s) => s.fullName).filter((n) => !n.startsWith('$')).join(', ');
// The one line to look for (test/support/cluster.ts waits for "node <id> up:").
log.info(url ? `node ${config.nodeId} up: listening on ${url} (${services})` : `node ${config.nodeId} up: ${services} (no HTTP gateway on this node)`);
