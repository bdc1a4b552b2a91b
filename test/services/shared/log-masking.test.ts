import test from 'ava';
import { ServiceBroker } from 'moleculer';
import { loadConfig } from '../../../config.js';
import { brokerOptions } from '../../../moleculer.config.js';
import { maskLogValue, maskUrlCredentials } from '../../../services/shared/log-masking.js';
import { captureLogs, testEnv } from '../../support/stack.js';

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

test('maskLogValue censors secret fields at the top, one and two levels down and in array elements, on a copy', (t) => {
  const input = {
    password: 'p0', user: 'ana',
    body: { apiKey: 'k1', email: 'a@b.test' },
    req: { headers: { authorization: 'Bearer t2', 'x-api-key': 'k2', accept: 'application/json' } },
    items: [{ token: 't3', id: 1 }, { id: 2 }],
  };
  t.deepEqual(maskLogValue(input), {
    password: '[redacted]', user: 'ana',
    body: { apiKey: '[redacted]', email: 'a@b.test' },
    req: { headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', accept: 'application/json' } },
    items: [{ token: '[redacted]', id: 1 }, { id: 2 }],
  });
  t.is(input.password, 'p0');
  t.is(input.body.apiKey, 'k1');
  t.is(input.req.headers.authorization, 'Bearer t2');
  t.is(input.items[0]!.token, 't3');
});

test('maskLogValue censors a whole secret value, whatever its type', (t) => {
  t.deepEqual(maskLogValue({ certificado: { pfx: 'AAA', senha: 'x' }, csc: 123456, secret: null }), { certificado: '[redacted]', csc: '[redacted]', secret: '[redacted]' });
});

test('maskLogValue censors secret fields an Error carries, and in what it carries, on the copy', (t) => {
  const err = Object.assign(new Error('refused'), { password: 'p4', code: 'E_AUTH', data: { refreshToken: 'r4', field: 'refreshToken' } });
  const out = maskLogValue({ err }) as any;
  t.true(out.err instanceof Error);
  t.is(out.err.message, 'refused');
  t.is(out.err.password, '[redacted]');
  t.is(out.err.code, 'E_AUTH');
  t.deepEqual(out.err.data, { refreshToken: '[redacted]', field: 'refreshToken' });
  t.is(err.password, 'p4');
  t.is(err.data.refreshToken, 'r4');
});

test('maskLogValue censors exact key names only: passwordPolicy, tokens and the like are logged as they are', (t) => {
  const input = { passwordPolicy: 'min 12', tokens: 3, Password: 'cased', apiKeys: ['k-1'], nested: { secretary: 'Bia', tokenCount: 2 } };
  t.deepEqual(maskLogValue(input), { passwordPolicy: 'min 12', tokens: 3, Password: 'cased', apiKeys: ['k-1'], nested: { secretary: 'Bia', tokenCount: 2 } });
});

test('maskLogValue returns plain objects and arrays in which nothing changes as they are', (t) => {
  const input = { a: 1, b: { c: ['x', 2], d: 'https://example.com/a@b' }, passwordPolicy: 'min 12' };
  t.is(maskLogValue(input), input);
  const partly = { keep: { a: 1 }, change: { password: 'p' } };
  const out = maskLogValue(partly) as any;
  t.not(out, partly);
  t.is(out.keep, partly.keep);
  t.deepEqual(out.change, { password: '[redacted]' });
});

test('maskLogValue censors secret fields of class instances too, and leaves what serializes itself alone', (t) => {
  class Connection { constructor(readonly host: string, readonly password: string) {} }
  const date = new Date('2026-11-26T10:00:00Z');
  const buffer = Buffer.from('password');
  const out = maskLogValue({ connection: new Connection('db', 's3cr3t'), at: date, body: buffer }) as any;
  t.deepEqual({ ...out.connection }, { host: 'db', password: '[redacted]' });
  t.is(out.at, date);
  t.is(out.body, buffer);
});

test('the broker logger writes secret fields censored', (t) => {
  const logs = captureLogs();
  const config = loadConfig(testEnv({ LOG_LEVEL: 'info' }));
  const broker = new ServiceBroker(brokerOptions(config, { logDestination: logs.stream }));
  const logger = broker.getLogger('log-masking-test');
  logger.info({ password: 'x', nested: { apiKey: 'y' }, passwordPolicy: 'z' }, 'credentials checked');
  logger.warn({ err: Object.assign(new Error('refused'), { token: 'w' }) }, 'login refused');
  const lines = logs.lines().filter((l) => l.msg === 'credentials checked' || l.msg === 'login refused');
  t.is(lines.length, 2);
  t.like(lines[0], { msg: 'credentials checked', password: '[redacted]', nested: { apiKey: '[redacted]' }, passwordPolicy: 'z' });
  t.like(lines[1], { msg: 'login refused', err: { message: 'refused', token: '[redacted]' } });
  t.false(logs.text().includes('"x"') || logs.text().includes('"y"') || logs.text().includes('"w"'));
});
