import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import type { ServiceBroker } from 'moleculer';
import type { AppConfig } from '../../config.js';
import { isAlive } from './process-alive.js';

/**
 * Issue 21, item 2: the embedded node (`npm start` without REDIS_URL) owns its PGlite directory, so
 * `npm run admin` and `npm run repl` join that node over the loopback transporter
 * (services/shared/loopback-transporter.ts) instead of opening the database a second time. The
 * node leaves its address beside the database's pid file (`<PGLITE_DIR>.node.json`, mode 0600)
 * for as long as it runs; a command finds it there through the same configuration.
 */
interface NodeFile { pid: number; nodeID: string; port: number }

const fileOf = (config: Pick<AppConfig, 'pgliteDir'>) => `${config.pgliteDir}.node.json`;

/** Called once the embedded node's broker started: its transporter now has its port. */
export function announceEmbeddedNode(broker: ServiceBroker, config: Pick<AppConfig, 'pgliteDir'>): void {
  const port = (broker.transit as unknown as { tx: { opts: { port: number } } }).tx.opts.port;
  const file = fileOf(config);
  const mine = JSON.stringify({ pid: process.pid, nodeID: broker.nodeID, port } satisfies NodeFile);
  writeFileSync(file, mine, { mode: 0o600 });
  process.once('exit', () => { try { if (readFileSync(file, 'utf8') === mine) unlinkSync(file); } catch { /* already gone */ } });
}

type EmbeddedConfig = Pick<AppConfig, 'pgliteDir' | 'databaseUrl' | 'redisUrl'>;

function announced(config: EmbeddedConfig): string | null {
  const file = fileOf(config);
  if (!existsSync(file)) return null;
  let node: NodeFile;
  try { node = JSON.parse(readFileSync(file, 'utf8')) as NodeFile; } catch { return null; }
  return isAlive(node.pid) ? `127.0.0.1:${node.port}/${node.nodeID}` : null;
}

/** Another live process holds the PGlite directory (its pid file, services/shared/database.ts). */
function databaseHeld(config: EmbeddedConfig): boolean {
  try {
    const pid = Number(readFileSync(`${config.pgliteDir}.pid`, 'utf8'));
    return !!pid && pid !== process.pid && isAlive(pid);
  } catch {
    return false;
  }
}

/**
 * `127.0.0.1:<port>/<nodeID>` of the embedded node running on this configuration, or null when none
 * runs. A node still starting (it holds the database but has not announced itself yet, as right
 * after `npm start &`) is waited for up to `timeoutMs`.
 */
export async function runningEmbeddedNode(config: EmbeddedConfig, timeoutMs = 60_000): Promise<string | null> {
  if (config.databaseUrl || config.redisUrl) return null;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const url = announced(config);
    if (url || !databaseHeld(config) || Date.now() > deadline) return url;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Resolves once the joined node is known and available (the transporter gossips every 2 s). */
export async function waitForJoinedNode(broker: ServiceBroker, join: string, timeoutMs: number): Promise<void> {
  const nodeID = join.slice(join.lastIndexOf('/') + 1);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const nodes = await broker.call<{ id: string }[], object>('$node.list', { onlyAvailable: true });
    if (nodes.some((n) => n.id === nodeID)) return;
    if (Date.now() > deadline) throw new Error(`the embedded node ${nodeID} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
