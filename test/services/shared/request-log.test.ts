import test from 'ava';
import type { LoggerInstance } from 'moleculer';
import { RequestLog, requestLog } from '../../../services/shared/request-log.js';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** A logger that keeps each call's level and arguments, as pino would receive them. */
function recording(): { logger: LoggerInstance; calls: Array<[string, unknown[]]> } {
  const calls: Array<[string, unknown[]]> = [];
  const logger = Object.fromEntries(LEVELS.map((level) => [level, (...args: unknown[]) => { calls.push([level, args]); }])) as unknown as LoggerInstance;
  return { logger, calls };
}

test('every level names the request id beside the line’s own fields, which keep their values', (t) => {
  const { logger, calls } = recording();
  const log = requestLog(logger, 'req-0001');
  for (const level of LEVELS) log[level]({ documentId: 'd1', requestId: 'not-this-one' }, `${level} line`, 7);
  t.deepEqual(calls, LEVELS.map((level) => [level, [{ requestId: 'not-this-one', documentId: 'd1' }, `${level} line`, 7]]));
});

test('a message alone gets the request id as its fields; an Error goes under err, as pino serializes it', (t) => {
  const { logger, calls } = recording();
  const log = new RequestLog(logger, 'req-0002');
  const err = new Error('boom');
  log.warn('only a message');
  log.error(err, 'failed');
  t.deepEqual(calls, [
    ['warn', [{ requestId: 'req-0002' }, 'only a message']],
    ['error', [{ requestId: 'req-0002', err }, 'failed']],
  ]);
});

test('without a request (a timer, a start-up) the service’s own logger is used as it is', (t) => {
  const { logger } = recording();
  t.is(requestLog(logger, undefined), logger);
  t.is(requestLog(logger, null), logger);
  t.is(requestLog(logger, ''), logger);
});
