import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';

/**
 * Every command a redis-server runs for its clients while `body` runs, as MONITOR prints it
 * (`"evalsha" "<sha>" "1" "<key>"`), without the calls a script makes inside the server (source
 * `lua`): what a test counts as round trips. A plain socket, not ioredis's monitor(), whose ready
 * check races the first MONITOR lines ("Command queue state error").
 */
export async function commandsDuring(url: string, body: () => Promise<unknown>): Promise<string[][]> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.setEncoding('utf8');
  const marker = `monitor-end-${randomUUID()}`;
  const seen: string[][] = [];
  let buffered = '';
  let started!: () => void;
  let ended!: () => void;
  const monitoring = new Promise<void>((resolve) => { started = resolve; });
  const markerSeen = new Promise<void>((resolve) => { ended = resolve; });
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let eol: number;
    while ((eol = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, eol);
      buffered = buffered.slice(eol + 2);
      if (line === '+OK') { started(); continue; }
      const parsed = /^\+[\d.]+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
      if (!parsed) continue;
      const args = [...parsed[2]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescape(m[1]!));
      if (args[1] === marker) ended();
      else if (parsed[1] !== 'lua') seen.push(args);
    }
  });
  socket.write('MONITOR\r\n');
  await monitoring;
  try {
    await body();
    // MONITOR prints in order: once a command sent after the body shows, everything before it has.
    const probe = connect(Number(port), hostname);
    probe.write(`ECHO ${marker}\r\n`);
    await markerSeen;
    probe.destroy();
    return seen;
  } finally {
    socket.destroy();
  }
}

/** sdscatrepr's escapes, as MONITOR writes arguments. */
function unescape(s: string): string {
  return s.replace(/\\(x[0-9a-f]{2}|.)/g, (_, e: string) => (e[0] === 'x' && e.length === 3 ? String.fromCharCode(parseInt(e.slice(1), 16)) : ({ n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' } as Record<string, string>)[e] ?? e));
}
