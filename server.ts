import { loadConfig } from './config.js';
import { createNode } from './services/broker.js';
import { closeAllKnex } from './services/shared/database.js';
import { closeAllRedis } from './services/shared/redis.js';

/**
 * `npm start`: one node. With no environment it runs every service in this process on embedded
 * Postgres (PGlite under var/) with the built-in authority simulator. With DATABASE_URL and
 * REDIS_URL it joins a cluster; SERVICES=emission,sefaz picks what this node runs.
 */
const config = loadConfig();
const broker = await createNode({ config });

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
broker.logger.info(`node ${config.nodeId} up: ${broker.services.map((s) => s.fullName).join(', ')}`);
