import { Redis } from 'ioredis';

/** One command connection per process and URL; blocking readers create their own. */
const clients = new Map<string, Redis>();

export function getRedis(url: string): Redis {
  let client = clients.get(url);
  if (!client) {
    client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    client.on('error', () => { /* reported by health checks and callers, not as unhandled events */ });
    clients.set(url, client);
  }
  return client;
}

export async function closeAllRedis(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.allSettled(all.map((c) => c.quit()));
}
