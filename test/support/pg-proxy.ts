import net from 'node:net';

/**
 * A TCP proxy in front of the local PostgreSQL for one test's nodes: `cut()` is a database outage
 * as they see it (every open connection drops, new ones are refused), `restore()` ends it. The
 * shared server and every other test's connections are untouched.
 */
export interface PgProxy {
  /** The connection string to give the nodes: the target's, through the proxy. */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startPgProxy(targetUrl: string): Promise<PgProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () => new Promise<void>((resolve, reject) => {
    const s = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const sock of [client, upstream]) sockets.add(sock);
      const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
      for (const sock of [client, upstream]) { sock.on('error', end); sock.on('close', end); }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    s.once('error', reject);
    // The same port again after a cut: the nodes keep their connection string.
    s.listen(port, '127.0.0.1', () => { port = (s.address() as net.AddressInfo).port; server = s; resolve(); });
  });

  const cut = async () => {
    const s = server;
    if (!s) return;
    server = null;
    const closed = new Promise<void>((r) => s.close(() => r()));
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    await closed;
  };

  await listen();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), cut, restore: listen, close: cut };
}
