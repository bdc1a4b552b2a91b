import http from 'node:http';
import { writeFileSync } from 'node:fs';

/**
 * An open-loop load driver (issue 18: "open-loop load at 400 notes/s … p50 < 15 ms, p99 < 40 ms").
 * Requests start at evenly spaced times, `rate` a second, whatever the answers do, over
 * keep-alive connections opened as needed; each latency is measured from the request's scheduled
 * start, so a driver or server that falls behind shows as latency (no coordinated omission).
 *
 * autocannon's `overallRate` gives each connection its own one-second budget, and all connections
 * start together, so every second began with a burst of `rate` requests: the latency it measured
 * was the burst's drain time, not a steady arrival rate's.
 */
export interface OpenLoopResult {
  /** Answered 2xx per second of the schedule. */
  rps: number;
  p50: number;
  p99: number;
  sent: number;
  /** Answers that were not 2xx, and requests that failed without an answer. */
  errors: number;
  /** Those errors by what they were: `<status> <code of the envelope>`, or `no answer (<socket error>)`. */
  errorsBy: Record<string, number>;
}

/** What one request came to: 2xx, or its error's name (status and the envelope's code, or the socket's error). */
type Outcome = { ok: true } | { ok: false; error: string };

export async function openLoop(opts: { urls: string[]; rate: number; seconds: number; method: string; headers: Record<string, string>; body: string; headersFor?: () => Record<string, string> }): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  /**
   * BENCH_LATENCY_DUMP=<file>: each answered request's scheduled start (ms from the first), latency,
   * URL index and how late the driver sent it (its own loop's delay, part of the latency), kept
   * only when asked for (the driver's CPU counts in the bench's figures).
   */
  const dump = process.env.BENCH_LATENCY_DUMP;
  const timeline: [number, number, number, number][] = [];
  const errorsBy: Record<string, number> = {};
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const headers = opts.headersFor ? { ...opts.headers, ...opts.headersFor() } : opts.headers;
    const late = performance.now() - scheduled;
    inFlight.push(send(agent, opts.urls[i % opts.urls.length]!, { ...opts, headers }).then((outcome) => {
      if (outcome.ok) { const latency = performance.now() - scheduled; latencies.push(latency); if (dump) timeline.push([scheduled - start, latency, i % opts.urls.length, late]); }
      else errorsBy[outcome.error] = (errorsBy[outcome.error] ?? 0) + 1;
    }));
  }
  await Promise.all(inFlight);
  agent.destroy();
  // One line per answer, "start latency url-index late" (ms, ms, which node, ms): when the slow ones
  // came, whether both nodes were slow at once, and whether the driver itself sent them late.
  if (dump) writeFileSync(dump, timeline.sort((a, b) => a[0] - b[0]).map(([t, l, u, d]) => `${t.toFixed(1)} ${l.toFixed(1)} ${u} ${d.toFixed(1)}`).join('\n') + '\n');
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!) : NaN);
  const errors = Object.values(errorsBy).reduce((a, b) => a + b, 0);
  return { rps: Math.round((latencies.length / opts.seconds) * 10) / 10, p50: at(0.5), p99: at(0.99), sent: total, errors, errorsBy };
}

/** One request and what it came to; an error's envelope is read for its code (a 2xx body is not kept). */
function send(agent: http.Agent, url: string, opts: { method: string; headers: Record<string, string>; body: string }): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: opts.method, agent, headers: { ...opts.headers, 'content-length': Buffer.byteLength(opts.body) } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        res.resume();
        res.on('end', () => resolve({ ok: true }));
      } else {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ ok: false, error: `${status} ${envelopeCode(Buffer.concat(chunks).toString('utf8'))}` }));
      }
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, error: `answer cut short (${err.code ?? err.message})` }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, error: `no answer (${err.code ?? err.message})` }));
    req.end(opts.body);
  });
}

/** The spec's error envelope's `error.code`, or `?` when the body is not one. */
function envelopeCode(body: string): string {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? '?';
  } catch {
    return '?';
  }
}
