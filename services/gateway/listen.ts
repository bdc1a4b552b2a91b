import type { Server } from 'node:http';

/**
 * The gateway's `server.listen`, as moleculer-web's started() calls it (port, host, callback):
 * - Node reports a failed listen (a busy port) only as an 'error' event, so moleculer-web's start
 *   would hang forever; here that error reaches the callback: the gateway's start fails, and
 *   `npm start` exits non-zero with the address in the message (server.ts);
 * - the listen backlog is `backlog` (HTTP_LISTEN_BACKLOG), not Node's 511. A burst of new
 *   connections beyond the backlog overflows the kernel's accept queue: the handshakes it drops are
 *   retried after 1, 3, 7 … s, and some clients see their connection reset with no answer at all.
 *   Measured (bench/README.md, 2026-11-26 eighth): `open-nfe-1` at 400/s on this 2-core machine,
 *   which answers ~370/s, opened thousands of connections; with 511, 24,651 listen overflows and
 *   322 requests reset; with 4096, none, every request answered.
 */
export function listenAsGateway(server: Server, backlog: number): void {
  const listen = server.listen.bind(server) as (...args: unknown[]) => Server;
  (server as any).listen = (port: number, host: string, done: (err?: Error) => void) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'address already in use' : err.message;
      done(Object.assign(new Error(`cannot listen on ${host}:${port}: ${why}`), { code: err.code, port }));
    };
    server.once('error', onError);
    return listen(port, host, backlog, () => {
      server.off('error', onError);
      done();
    });
  };
}
