import { createServer, type Server, type Socket } from 'node:net';
import { Transporters } from 'moleculer';

/**
 * Moleculer's TCP transporter confined to this machine's loopback: how the embedded node (`npm start`
 * without REDIS_URL) lets `npm run admin` and `npm run repl` join it instead of opening its PGlite
 * a second time (services/shared/embedded-node.ts). No UDP discovery: a joining process is given the
 * node's address. The stock transporter listens on every interface and dials peers by host name;
 * here it listens on 127.0.0.1 only and dials 127.0.0.1, so no other machine can reach the broker.
 */
interface TcpReader {
  opts: { port: number | null };
  server: Server | null;
  connected: boolean;
  onTcpClientConnected(socket: Socket): void;
  listen(): Promise<number>;
}

const LOOPBACK = '127.0.0.1';

/** TcpReader.listen (moleculer/src/transporters/tcp/tcp-reader.js) with the host given. */
function listenOnLoopback(this: TcpReader): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => this.onTcpClientConnected(socket));
    server.once('error', reject);
    server.listen({ port: this.opts.port ?? 0, host: LOOPBACK, exclusive: true }, () => {
      this.opts.port = (server.address() as { port: number }).port;
      this.server = server;
      this.connected = true;
      resolve(this.opts.port);
    });
  });
}

export interface LoopbackOptions {
  /** `127.0.0.1:<port>/<nodeID>` of the node to join; absent: only listen (the embedded node). */
  join?: string;
  maxPacketSize: number;
}

export class LoopbackTransporter extends Transporters.TCP {
  constructor(opts: LoopbackOptions) {
    super({ udpDiscovery: false, useHostname: false, urls: opts.join ? [opts.join] : null, maxPacketSize: opts.maxPacketSize } as any);
    // The stock startTcpServer creates its reader and listens at once; the reader class is not
    // exported, so its listen is replaced as the reader is assigned.
    let reader: TcpReader | null = null;
    Object.defineProperty(this, 'reader', {
      configurable: true,
      enumerable: true,
      get: () => reader,
      set: (value: TcpReader | null) => {
        if (value) value.listen = listenOnLoopback;
        reader = value;
      },
    });
  }

  /** Every peer is on this machine. */
  getNodeAddress(): string {
    return LOOPBACK;
  }
}
