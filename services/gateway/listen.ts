import type { Server } from 'node:http';

/**
 * moleculer-web's started() passes a callback to `server.listen` and waits for it, but Node reports
 * a failed listen (a busy port) only as an 'error' event, so the start would hang forever. This
 * makes that error reach the callback: the gateway's start fails, and `npm start` exits non-zero
 * with the address in the message (server.ts).
 */
export function failStartOnListenError(server: Server): void {
  const listen = server.listen.bind(server) as (...args: unknown[]) => Server;
  (server as any).listen = (port: number, host: string, done: (err?: Error) => void) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'address already in use' : err.message;
      done(Object.assign(new Error(`cannot listen on ${host}:${port}: ${why}`), { code: err.code, port }));
    };
    server.once('error', onError);
    return listen(port, host, () => {
      server.off('error', onError);
      done();
    });
  };
}
