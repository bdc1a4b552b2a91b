import type { LoggerInstance } from 'moleculer';

/**
 * A service's logger whose every line names the request it serves (`requestId`, the X-Request-Id
 * the access-log line carries too). It is handed down explicitly, from the Moleculer context or
 * the gateway's request, rather than read from an AsyncLocalStorage: on Node 20 a store installs a
 * promise hook that runs for every promise of the process, which cost an emission node 7-10 % of
 * its CPU per note (bench/README.md, sixteenth session).
 */
export class RequestLog implements LoggerInstance {
  constructor(private readonly logger: LoggerInstance, private readonly requestId: string) {}

  fatal(...args: unknown[]): void { this.logger.fatal(...this.named(args)); }
  error(...args: unknown[]): void { this.logger.error(...this.named(args)); }
  warn(...args: unknown[]): void { this.logger.warn(...this.named(args)); }
  info(...args: unknown[]): void { this.logger.info(...this.named(args)); }
  debug(...args: unknown[]): void { this.logger.debug(...this.named(args)); }
  trace(...args: unknown[]): void { this.logger.trace(...this.named(args)); }

  /** pino's call shapes: (fields, msg…), (err, msg…) or (msg…); the request id joins the fields. */
  private named(args: unknown[]): unknown[] {
    const [first, ...rest] = args;
    if (first instanceof Error) return [{ requestId: this.requestId, err: first }, ...rest];
    if (first !== null && typeof first === 'object') return [{ requestId: this.requestId, ...first }, ...rest];
    return [{ requestId: this.requestId }, ...args];
  }
}

/** `logger` naming `requestId` on every line; `logger` itself when there is no request (a timer, a start-up). */
export function requestLog(logger: LoggerInstance, requestId: string | null | undefined): LoggerInstance {
  return requestId ? new RequestLog(logger, requestId) : logger;
}
