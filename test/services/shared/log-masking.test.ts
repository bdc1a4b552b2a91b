import test from 'ava';
import { maskLogValue, maskUrlCredentials } from '../../../services/shared/log-masking.js';

test('maskUrlCredentials hides the password of any URL and keeps the rest', (t) => {
  t.is(maskUrlCredentials('connect ECONNREFUSED postgres://fiscal:s3cr3t@db:5432/fiscal'), 'connect ECONNREFUSED postgres://fiscal:[redacted]@db:5432/fiscal');
  t.is(maskUrlCredentials('redis://:s3cr3t@cache:6379 and https://a:b@x.example/p'), 'redis://:[redacted]@cache:6379 and https://a:[redacted]@x.example/p');
  t.is(maskUrlCredentials('mail me at dev@example.com, see https://example.com/a@b'), 'mail me at dev@example.com, see https://example.com/a@b');
});

test('maskLogValue masks strings inside plain objects, arrays and errors without touching the originals', (t) => {
  const err = new Error('boom postgres://u:p@h');
  const input = { msg: 'x', err, nested: { urls: ['redis://:pw@r'] }, n: 1 };
  const out = maskLogValue(input) as any;
  t.is(out.err.message, 'boom postgres://u:[redacted]@h');
  t.true(out.err instanceof Error);
  t.notRegex(out.err.stack, /u:p@h/);
  t.deepEqual(out.nested, { urls: ['redis://:[redacted]@r'] });
  t.is(out.n, 1);
  t.is(err.message, 'boom postgres://u:p@h');
  t.is(input.nested.urls[0], 'redis://:pw@r');
});
