import net from 'node:net';

/** One raw answer split at the blank line: the head's lines and the body text. */
export interface RawAnswer {
  text: string;
  statusLine: string;
  /** Header fields by lower-cased name. */
  headers: Record<string, string>;
  body: string;
}

/** Writes raw bytes on a new connection and returns everything the server sends until it closes. */
export function rawExchange(url: string, bytes: Buffer): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d) => { out += d.toString('utf8'); });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

/** rawExchange, parsed: bytes Node cannot parse get their answer written on the socket. */
export async function rawAnswer(url: string, bytes: Buffer): Promise<RawAnswer> {
  const text = await rawExchange(url, bytes);
  const cut = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, cut).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { text, statusLine, headers, body: text.slice(cut + 4) };
}
