import test from 'ava';
import { isDependencyUnreachable } from '../../../lib/errors/unavailable.js';

test('isDependencyUnreachable recognises refused, reset and timed-out connections by errno code', (t) => {
  for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']) t.true(isDependencyUnreachable({ code }), code);
});

test('isDependencyUnreachable recognises PostgreSQL connection exceptions and shutdowns by SQLSTATE', (t) => {
  for (const code of ['08006', '08001', '08P01', '57P01', '57P02', '57P03', '53300']) t.true(isDependencyUnreachable({ code, message: 'x' }), code);
});

test('isDependencyUnreachable recognises a connection lost mid-query and a pool that could not hand one out', (t) => {
  t.true(isDependencyUnreachable(new Error('Connection terminated unexpectedly')));
  t.true(isDependencyUnreachable(new Error('BEGIN; - Connection terminated unexpectedly'))); // as Knex rethrows it
  t.true(isDependencyUnreachable(new Error('Client has encountered a connection error and is not queryable')));
  t.true(isDependencyUnreachable({ name: 'KnexTimeoutError', message: 'Knex: Timeout acquiring a connection. The pool is probably full.' }));
});

test('isDependencyUnreachable leaves data errors, bugs and refusals alone', (t) => {
  t.false(isDependencyUnreachable({ code: '23505', message: 'duplicate key value violates unique constraint' }));
  t.false(isDependencyUnreachable({ code: '42P01', message: 'relation does not exist' }));
  t.false(isDependencyUnreachable(new TypeError('x is undefined')));
  t.false(isDependencyUnreachable(new Error('insert into x - value too long: Connection terminated is a phrase')));
  t.false(isDependencyUnreachable({ code: 503, type: 'SERVICE_UNAVAILABLE' }));
  t.false(isDependencyUnreachable(null));
  t.false(isDependencyUnreachable('ECONNREFUSED'));
});
