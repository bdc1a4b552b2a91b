import { loadConfig } from './config.js';
import { createNode } from './services/broker.js';
import { closeAllKnex } from './services/shared/database.js';
import { closeAllRedis } from './services/shared/redis.js';
import { announceEmbeddedNode } from './services/shared/embedded-node.js';

/**
 * `npm start`: one node. With no environment it runs every service in this process on embedded
 * Postgres (PGlite under var/) with the built-in authority simulator. With DATABASE_URL and
 * REDIS_URL it joins a cluster; SERVICES=emission,sefaz picks what this node runs. Embedded, it
 * also listens on loopback so `npm run admin` and `npm run repl` join it (services/shared/embedded-node.ts).
 */
const config = loadConfig();
const embedded = !config.databaseUrl && !config.redisUrl;
const broker = await createNode({ config, ...(embedded ? { loopback: {} } : {}) });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  broker.logger.info(`${signal}: stopping`);
  await broker.stop().catch(() => undefined);
  await Promise.allSettled([closeAllKnex(), closeAllRedis()]);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await broker.start();
if (embedded) announceEmbeddedNode(broker, config);
broker.logger.info(`node ${config.nodeId} up: ${broker.services.map((s) => s.fullName).join(', ')}`);
