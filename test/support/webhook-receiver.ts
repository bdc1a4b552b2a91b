import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../lib/webhooks/verify-signature.js';

export interface ReceivedHook {
  raw: string;
  body: any;
  headers: http.IncomingHttpHeaders;
  /** Whether X-Webhook-Signature verifies with the secret given to the receiver at that moment. */
  verified: boolean;
}

export interface Receiver {
  url: string;
  hits: ReceivedHook[];
  /** Status the receiver answers with (default 200). */
  status: number;
  /** Secret the receiver verifies with (as a partner would keep it). */
  secret: string | null;
  /** TCP connections accepted so far, and how many are still open. */
  connections: number;
  openConnections(): number;
  /** Closes every idle kept-alive connection (as a receiver whose keep-alive timeout ran out). */
  dropIdleConnections(): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that verifies signatures with lib/webhooks/verify-signature.ts. */
export async function startReceiver(): Promise<Receiver> {
  const open = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '', hits: [], status: 200, secret: null, connections: 0,
    openConnections: () => open.size,
    dropIdleConnections: () => server.closeIdleConnections(),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try { body = JSON.parse(raw); } catch { /* keep raw */ }
      const verified = receiver.secret !== null && verifyWebhookSignature(receiver.secret, raw, req.headers['x-webhook-signature'] as string | undefined);
      receiver.hits.push({ raw, body, headers: req.headers, verified });
      res.statusCode = receiver.status;
      res.end('ok');
    });
  });
  server.on('connection', (socket) => {
    receiver.connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); });
  return receiver;
}
