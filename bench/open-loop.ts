import http from 'node:http';

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
}

export async function openLoop(opts: { urls: string[]; rate: number; seconds: number; method: string; headers: Record<string, string>; body: string; headersFor?: () => Record<string, string> }): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const headers = opts.headersFor ? { ...opts.headers, ...opts.headersFor() } : opts.headers;
    inFlight.push(send(agent, opts.urls[i % opts.urls.length]!, { ...opts, headers }).then((ok) => {
      if (ok) latencies.push(performance.now() - scheduled);
      else errors++;
    }));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!) : NaN);
  return { rps: Math.round((latencies.length / opts.seconds) * 10) / 10, p50: at(0.5), p99: at(0.99), sent: total, errors };
}

/** One request; true when answered 2xx. */
function send(agent: http.Agent, url: string, opts: { method: string; headers: Record<string, string>; body: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: opts.method, agent, headers: { ...opts.headers, 'content-length': Buffer.byteLength(opts.body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode! >= 200 && res.statusCode! < 300));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.end(opts.body);
  });
}
