import test from 'ava';
import { Writable } from 'node:stream';
import { ServiceBroker } from 'moleculer';
import { authenticator } from 'otplib';
import { loadConfig } from '../../../config.js';
import { brokerOptions } from '../../../moleculer.config.js';
import { SERVICE_LOADERS } from '../../../services/index.js';
import { attachRuntime, systemClock } from '../../../services/shared/runtime.js';
import { closeKnex } from '../../../services/shared/database.js';
import { authenticationKey } from '../../../services/auth/authentication-cache.js';
import { createTestDatabase, testEnv } from '../../support/stack.js';
import { mailsTo, tokenMailedTo } from '../../support/mail.js';

/**
 * Runs the real gateway + auth with the broker's Pino logger writing into a buffer at debug level,
 * goes through login, 2FA, keys, refresh and reset, then searches the log for every secret seen.
 */
test('no password, token, API key, TOTP secret or recovery code reaches the log stream', async (t) => {
  const db = await createTestDatabase();
  const config = loadConfig(testEnv({ DATABASE_URL: db.url, LOG_LEVEL: 'debug' }));
  const lines: string[] = [];
  const destination = new Writable({ write(chunk, _enc, cb) { lines.push(chunk.toString()); cb(); } });
  const options = brokerOptions(config);
  const pinoOptions = (options.logger as any).options.pino.options;
  const broker = new ServiceBroker({ ...options, logger: { type: 'Pino', options: { level: 'debug', pino: { options: pinoOptions, destination } } }, logLevel: 'debug' });
  attachRuntime(broker, { config, clock: systemClock });
  for (const name of ['api-gateway', 'auth']) broker.createService(await SERVICE_LOADERS[name]!());
  await broker.start();
  t.teardown(async () => { await broker.stop(); await closeKnex(config); await db.drop(); });
  const api: any = broker.getLocalService('api');
  for (const r of api.routes) if (r.opts.autoAliases) api.regenerateAutoAliases(r);
  const base = `http://127.0.0.1:${api.server.address().port}`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  const secrets: string[] = [];
  const password = 'Senha-Muito-Secreta-1';
  secrets.push(password);
  const partner: any = await broker.call('v1.auth.createPartner', { name: 'Logs Ltda', ownerEmail: 'owner@logs.test', ownerPassword: password, subscription: 'ACTIVE' });
  const key: any = await broker.call('v1.auth.issueKey', { partnerId: partner.partnerId, kind: 'live' });
  secrets.push(key.apiKey, key.apiKey.slice(-43));

  const wrong = await call('POST', '/v1/auth/login', { email: 'owner@logs.test', password: 'Wrong-Password-Typed-9' });
  t.is(wrong.status, 401);
  secrets.push('Wrong-Password-Typed-9');
  const login = await call('POST', '/v1/auth/login', { email: 'owner@logs.test', password });
  const mfa = login.body.data.mfa_token;
  secrets.push(mfa);
  const setup = await call('POST', '/v1/auth/2fa/setup', undefined, { authorization: `Bearer ${mfa}` });
  const secret = setup.body.data.secret;
  secrets.push(secret);
  const code = authenticator.generate(secret);
  const enable = await call('POST', '/v1/auth/2fa/enable', { totpCode: code }, { authorization: `Bearer ${mfa}` });
  t.is(enable.status, 200);
  secrets.push(...enable.body.data.recoveryCodes, enable.body.data.access_token, enable.body.data.refresh_token);
  const recovery = await call('POST', '/v1/auth/login', { email: 'owner@logs.test', password, recoveryCode: enable.body.data.recoveryCodes[0] });
  t.is(recovery.status, 201);
  secrets.push(recovery.body.data.access_token, recovery.body.data.refresh_token);
  const auth = { authorization: `Bearer ${recovery.body.data.access_token}` };
  const regen = await call('POST', '/v1/auth/api-keys/test/regenerate', undefined, auth);
  secrets.push(regen.body.data.apiKey);
  t.is((await call('GET', '/v1/auth/me', undefined, { 'x-api-key': key.apiKey })).status, 200);
  const refreshed = await call('POST', '/v1/auth/refresh', { refreshToken: recovery.body.data.refresh_token });
  secrets.push(refreshed.body.data.access_token, refreshed.body.data.refresh_token);
  t.is((await call('POST', '/v1/auth/refresh', { refreshToken: recovery.body.data.refresh_token })).status, 401);
  const mailed = mailsTo(config.mail.dir, 'owner@logs.test').length;
  await call('POST', '/v1/auth/forgot-password', { email: 'owner@logs.test' });
  const resetToken = await tokenMailedTo(config.mail.dir, 'owner@logs.test', mailed + 1);
  secrets.push(resetToken, 'Nova-Senha-Secreta-2');
  t.is((await call('POST', '/v1/auth/reset-password', { token: resetToken, newPassword: 'Nova-Senha-Secreta-2' })).status, 200);
  await new Promise((r) => setTimeout(r, 200));

  const log = lines.join('');
  t.true(log.includes('session opened') && log.includes('api key issued') && log.includes('recovery code used') && log.includes('login refused'), 'the flows were logged');
  // The authentication cache logs no keys, and its keys are hashes should one ever be logged.
  t.regex(authenticationKey({ apiKey: key.apiKey }), /^[0-9a-f]{64}$/, 'authentications are cached under a hashed key');
  for (const s of secrets) t.false(log.includes(s), `secret leaked into logs: ${s.slice(0, 6)}…`);
});
