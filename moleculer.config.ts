import type { BrokerOptions } from 'moleculer';
import pino from 'pino';
import { Middleware as ChannelsMiddleware } from '@moleculer/channels';
import type { AppConfig } from './config.js';
import { ParamsValidatorMiddleware } from './services/middlewares/params-validator.middleware.js';
import { TransportCapMiddleware } from './services/middlewares/transport-cap.middleware.js';
import { maskLogValue } from './services/shared/log-masking.js';
import { CLAIM_INTERVAL_MS, GROUP_START_ID, SelfHealingRedisAdapter } from './services/shared/redis-streams.js';
import { LoopbackTransporter } from './services/shared/loopback-transporter.js';
import { LogBlocks } from './services/shared/log-blocks.js';

/**
 * Broker options for one node. Embedded default: no transporter (every service in this process).
 * With REDIS_URL: Redis transporter, so any service can run on any number of nodes.
 * Retries are opt-in per action (`retryPolicy: { enabled: true }` on actions that are safe to
 * repeat, such as authority consults and status checks) and then only for errors that say they are
 * retryable: an emission or a transmission is never repeated by the broker. The circuit breaker trips on infrastructure failures
 * (5xx-like), never on refusals.
 */
export interface BrokerExtras {
  /** Where pino writes (tests capture the log stream); default stdout. */
  logDestination?: NodeJS.WritableStream;
  /**
   * Without REDIS_URL: the loopback transporter, so operator commands on this machine can join the
   * embedded node (`{}`: listen, as `npm start` does; `{ join }`: the address of the node to join).
   */
  loopback?: { join?: string };
}

/**
 * Standard output, written in blocks (services/shared/log-blocks.ts): lines wait until 4 KB are
 * pending or LOG_FLUSH_MS passed since the first of them; what waits is written when the process
 * exits. One per process: every broker of a process (tests start several) shares it.
 */
const LOG_FLUSH_MS = 100;
let stdoutLog: LogBlocks | undefined;
function standardOutput(): LogBlocks {
  if (!stdoutLog) {
    const blocks = (stdoutLog = new LogBlocks(pino.destination({ dest: 1, sync: true }), { minLength: 4096, flushMs: LOG_FLUSH_MS }));
    process.on('exit', () => blocks.flush());
  }
  return stdoutLog;
}

/**
 * Log level per Moleculer module: the framework's own start-up banner (broker, registry, channels,
 * transporter) goes to warn unless LOG_LEVEL asks for debug or trace, so `npm start` prints the
 * services and the one line with its URL; every service logs at LOG_LEVEL.
 */
function logLevels(level: string): Record<string, string> {
  const framework = level === 'debug' || level === 'trace' ? level : 'warn';
  const quiet = ['info', 'debug', 'trace'].includes(level) ? framework : level;
  return { BROKER: quiet, REGISTRY: quiet, CHANNELS: quiet, TRANSIT: quiet, TRANSPORTER: quiet, DISCOVERY: quiet, CACHER: quiet, '**': level };
}

export function brokerOptions(config: AppConfig, extras: BrokerExtras = {}): BrokerOptions {
  const levels = logLevels(config.logLevel);
  return {
    namespace: config.namespace,
    nodeID: config.nodeId,
    transporter: config.redisUrl ? { type: 'Redis', options: config.redisUrl }
      : extras.loopback ? new LoopbackTransporter({ join: extras.loopback.join, maxPacketSize: config.transportMaxPacketBytes }) as any
        : null,
    logger: {
      type: 'Pino',
      options: {
        level: levels,
        pino: {
          options: {
            // The one walk over every argument: censors secret fields and masks URL credentials
            // (services/shared/log-masking.ts), in place of pino's `redact`, which walked again.
            hooks: { logMethod(args: unknown[], method: (...a: unknown[]) => void) { method.apply(this, args.map((a) => maskLogValue(a))); } },
          },
          destination: extras.logDestination ?? standardOutput(),
        },
      },
    },
    logLevel: levels as any,
    requestTimeout: 90_000,
    retryPolicy: {
      enabled: false,
      retries: 3,
      delay: 200,
      maxDelay: 2_000,
      factor: 2,
      check: (err: any) => !!(err && err.retryable === true),
    },
    circuitBreaker: {
      enabled: true,
      threshold: 0.5,
      minRequestCount: 10,
      windowTime: 60,
      halfOpenTime: 10_000,
      check: (err: any) => !!(err && err.retryable === true),
    },
    // server.ts owns SIGTERM/SIGINT (drain, stop, close pools, exit 0); Moleculer's own handlers
    // would stop and exit concurrently with it.
    skipProcessEventRegistration: true,
    contextParamsCloning: false,
    validator: false,
    tracking: { enabled: true, shutdownTimeout: 10_000 },
    metrics: false,
    tracing: false,
    middlewares: [
      ParamsValidatorMiddleware,
      TransportCapMiddleware(config.transportMaxPacketBytes),
      (ChannelsMiddleware as any)({
        // Redis Streams whose consumer groups come back by themselves (services/shared/redis-streams.ts).
        adapter: config.redisUrl
          ? new SelfHealingRedisAdapter({ redis: { url: config.redisUrl, consumerOptions: { startID: GROUP_START_ID, claimInterval: CLAIM_INTERVAL_MS } }, maxRetries: 5 })
          : { type: 'Fake' },
      }) as any,
    ],
  };
}
